-- wrk script of the benchmark (one thread): POSTs pre-signed ~6 KB deliveries with a new
-- delivery id per request. The forge signs the body only, never the delivery id, so a pool of
-- bodies signed once in Node (bench/lib/wrk.mjs) is each sent with ids that never repeat:
-- every request is one a real forge could send. Args: <pool file> <url path> <id prefix>.
local pool = {}
local path, prefix
local sequence = 0

function init(args)
  local file = assert(io.open(args[1], "r"))
  path, prefix = args[2], args[3]
  for line in file:lines() do
    local tab = line:find("\t", 1, true)
    pool[#pool + 1] = { signature = line:sub(1, tab - 1), body = line:sub(tab + 1) }
  end
  file:close()
end

function request()
  local entry = pool[(sequence % #pool) + 1]
  local id = prefix .. sequence
  sequence = sequence + 1
  return "POST " .. path .. " HTTP/1.1\r\n" ..
    "Host: 127.0.0.1\r\n" ..
    "Content-Type: application/json\r\n" ..
    "User-Agent: GitHub-Hookshot/bench\r\n" ..
    "X-GitHub-Event: pull_request\r\n" ..
    "X-GitHub-Delivery: " .. id .. "\r\n" ..
    "X-Hub-Signature-256: " .. entry.signature .. "\r\n" ..
    "Content-Length: " .. #entry.body .. "\r\n\r\n" ..
    entry.body
end

-- The summary as one JSON line on stdout (latency in µs), after wrk's own text.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\nWRK_JSON {"requests":%d,"durationUs":%d,"connectErrors":%d,"readErrors":%d,' ..
    '"writeErrors":%d,"timeouts":%d,"non2xx3xx":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
