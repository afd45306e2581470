/**
 * The fake forge's checks, kept as state: check runs (`POST …/check-runs`, `PATCH
 * …/check-runs/{id}`, `GET …/commits/{sha}/check-runs`) and commit statuses (`POST
 * …/statuses/{sha}`). Like the forge, it refuses more than 50 annotations in one request, a
 * summary over 65,535 characters and a status description over 140, and adds each update's
 * annotations to the run's.
 */
import { z } from 'zod';

const annotationSchema = z.strictObject({
  path: z.string().min(1),
  start_line: z.number().int().positive(),
  end_line: z.number().int().positive(),
  annotation_level: z.enum(['notice', 'warning', 'failure']),
  message: z.string().min(1),
});

const outputSchema = z.strictObject({
  title: z.string().min(1),
  summary: z.string().min(1).max(65_535),
  annotations: z.array(annotationSchema).max(50).optional(),
});

const conclusionSchema = z.enum(['success', 'neutral', 'failure']);

const createSchema = z.strictObject({
  name: z.string().min(1),
  head_sha: z.string().min(1),
  status: z.enum(['queued', 'in_progress', 'completed']).optional(),
  conclusion: conclusionSchema.optional(),
  external_id: z.string().optional(),
  details_url: z.string().optional(),
  started_at: z.string().optional(),
  completed_at: z.string().optional(),
  output: outputSchema.optional(),
});

const updateSchema = createSchema.omit({ name: true, head_sha: true }).partial();

const statusSchema = z.strictObject({
  state: z.enum(['pending', 'success', 'failure', 'error']),
  context: z.string().min(1),
  description: z.string().max(140).optional(),
  target_url: z.string().optional(),
});

type FakeAnnotation = z.infer<typeof annotationSchema>;

interface FakeCheckRun {
  id: number;
  repo: string;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  external_id: string | null;
  details_url: string | null;
  output: { title: string; summary: string };
  annotations: FakeAnnotation[];
  /** How many requests carried annotations (the forge takes 50 per request). */
  annotationRequests: number;
}

type FakeCommitStatus = z.infer<typeof statusSchema> & { repo: string; sha: string };

export interface FakeForgeChecks {
  /**
   * Answers the request when it is a checks call (true), with `send` as the fake's.
   *
   * @example if (checks.handle(method, url, text, send)) return;
   */
  handle(
    method: string,
    url: URL,
    text: string,
    send: (status: number, value: unknown) => void,
  ): boolean;
  /** Check runs, oldest first. */
  runs(): FakeCheckRun[];
  /** Commit statuses, oldest first. */
  statuses(): FakeCommitStatus[];
  /** Adds a check run as a gateway that died mid-run left it (for the restart case). */
  addRun(run: Omit<FakeCheckRun, 'id' | 'annotations' | 'annotationRequests'>): FakeCheckRun;
}

const REPO = '([^/]+/[^/]+)';

export function createFakeForgeChecks(nextId: () => number): FakeForgeChecks {
  const runs: FakeCheckRun[] = [];
  const statuses: FakeCommitStatus[] = [];
  const public_ = (run: FakeCheckRun) => ({
    id: run.id,
    name: run.name,
    head_sha: run.head_sha,
    status: run.status,
    conclusion: run.conclusion,
    external_id: run.external_id,
    output: { ...run.output, annotations_count: run.annotations.length },
  });
  const addAnnotations = (run: FakeCheckRun, annotations: FakeAnnotation[] | undefined) => {
    if (!annotations || annotations.length === 0) return;
    run.annotations.push(...annotations);
    run.annotationRequests++;
  };
  return {
    handle(method, url, text, send) {
      const path = url.pathname;
      const create = new RegExp(`^/api/v3/repos/${REPO}/check-runs$`).exec(path);
      const update = new RegExp(`^/api/v3/repos/${REPO}/check-runs/(\\d+)$`).exec(path);
      const list = new RegExp(`^/api/v3/repos/${REPO}/commits/([^/]+)/check-runs$`).exec(path);
      const status = new RegExp(`^/api/v3/repos/${REPO}/statuses/([^/]+)$`).exec(path);
      const invalid = (error: z.ZodError) =>
        send(422, { message: 'Invalid request.', errors: [error.message] });
      if (create && method === 'POST') {
        const parsed = createSchema.safeParse(JSON.parse(text));
        if (!parsed.success) return (invalid(parsed.error), true);
        const body = parsed.data;
        const run: FakeCheckRun = {
          id: nextId(),
          repo: create[1] ?? '',
          name: body.name,
          head_sha: body.head_sha,
          status: body.conclusion ? 'completed' : (body.status ?? 'queued'),
          conclusion: body.conclusion ?? null,
          external_id: body.external_id ?? null,
          details_url: body.details_url ?? null,
          output: { title: body.output?.title ?? '', summary: body.output?.summary ?? '' },
          annotations: [],
          annotationRequests: 0,
        };
        addAnnotations(run, body.output?.annotations);
        runs.push(run);
        send(201, public_(run));
        return true;
      }
      if (update && method === 'PATCH') {
        const run = runs.find((candidate) => candidate.id === Number(update[2]));
        if (!run) return (send(404, { message: 'Not Found' }), true);
        const parsed = updateSchema.safeParse(JSON.parse(text));
        if (!parsed.success) return (invalid(parsed.error), true);
        const body = parsed.data;
        if (body.conclusion) {
          run.conclusion = body.conclusion;
          run.status = 'completed';
        } else if (body.status) {
          run.status = body.status;
        }
        if (body.output) run.output = { title: body.output.title, summary: body.output.summary };
        addAnnotations(run, body.output?.annotations);
        send(200, public_(run));
        return true;
      }
      if (list && method === 'GET') {
        const name = url.searchParams.get('check_name');
        const found = runs
          .filter((run) => run.repo === list[1] && run.head_sha === list[2])
          .filter((run) => name === null || run.name === name)
          .reverse();
        send(200, { total_count: found.length, check_runs: found.map(public_) });
        return true;
      }
      if (status && method === 'POST') {
        const parsed = statusSchema.safeParse(JSON.parse(text));
        if (!parsed.success) return (invalid(parsed.error), true);
        statuses.push({ ...parsed.data, repo: status[1] ?? '', sha: status[2] ?? '' });
        send(201, { id: nextId(), state: parsed.data.state });
        return true;
      }
      return false;
    },
    runs: () => runs,
    statuses: () => statuses,
    addRun(run) {
      const added = { ...run, id: nextId(), annotations: [], annotationRequests: 0 };
      runs.push(added);
      return added;
    },
  };
}
