/** One load run in its own process: options as JSON in argv[2], the result as JSON on stdout. */
import { generateLoad } from './load.mjs';

const result = await generateLoad(JSON.parse(process.argv[2] ?? '{}'));
process.stdout.write(JSON.stringify(result));
