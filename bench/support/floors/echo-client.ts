/** Floor 2's far end: answers each forwarded request with the echo result. Argument: the ws URL. */
import { echoResult } from './echo-result.js';
import { serveForwarded } from './far-end.js';

serveForwarded(process.argv[2]!, echoResult);
