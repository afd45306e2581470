// Accepts deliveries through the built SqliteStore, bursts of 10 per tick, until it is killed.
// Prints `accepted <delivery id>` only after that accept has resolved (its batch committed).
// Checkpoints run in the background, as in the gateway, so a kill can land in one.
// Usage: node accept-until-killed.mjs <dist entry> <db path> <fsync: true|false>
import { randomUUID } from 'node:crypto';

const [distEntry, file, fsync] = process.argv.slice(2);
const { openSqliteStore } = await import(distEntry);
const store = openSqliteStore({
  path: file,
  fsync: fsync === 'true',
  backgroundCheckpoints: true,
});
const padding = 'x'.repeat(6000);

for (let burst = 0; ; burst++) {
  const accepts = Array.from({ length: 10 }, (_, index) => {
    const deliveryId = `d-${burst}-${index}-${randomUUID()}`;
    const delivery = {
      route: 'reviews',
      event: 'pull_request',
      action: 'opened',
      deliveryId,
      receivedAt: Date.now(),
      payload: { number: burst, title: 'Kill me ☠', padding },
      headers: { 'x-forge-event': 'pull_request' },
      orderKey: null,
      maxAttempts: 5,
    };
    return store.accept(delivery, 3_600_000).then((result) => {
      if (result.accepted) process.stdout.write(`accepted ${deliveryId}\n`);
    });
  });
  await Promise.all(accepts);
}
