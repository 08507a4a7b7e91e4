/**
 * Arguments that are not settings. The usual source is npm: `npm start --port 9000` makes npm take
 * `--port` as its own option (exported as npm_config_port=true) and pass only `9000` on, so Junction
 * would start on its default port. npm leaves that trace in the environment, which lets the message
 * say exactly what happened and what to type instead.
 */
import { CONFIG_KEYS } from './schema.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Junction settings npm consumed as its own options, with the value npm recorded for each. */
function takenByNpm(env: Env): Array<{ key: string; value: string }> {
  if (env['npm_lifecycle_event'] === undefined) return [];
  return Object.keys(CONFIG_KEYS)
    .map((key) => ({ key, value: env[`npm_config_${key.replace(/-/g, '_')}`] }))
    .filter((entry): entry is { key: string; value: string } => entry.value !== undefined);
}

/** One problem per stray argument or swallowed setting, each saying how to pass it; empty when there are none. */
export function strayArgumentProblems(positionals: readonly string[], env: Env): string[] {
  const taken = takenByNpm(env);
  const leftover = [...positionals];
  const problems: string[] = [];
  const script = env['npm_lifecycle_event'];
  for (const { key, value } of taken) {
    // A bare `--port` reaches npm as "true" and its value arrives here as the next positional.
    const given = value === 'true' && leftover.length > 0 ? leftover.shift()! : value;
    const retyped = value === 'true' && given === 'true' ? `--${key}` : `--${key} ${given}`;
    problems.push(`--${key} was taken by npm, not passed to Junction: npm passes on only what follows --. Run: npm ${script === 'start' ? 'start' : `run ${script}`} -- ${retyped}`);
  }
  for (const arg of leftover) {
    problems.push(`unexpected argument '${arg}': settings are key=value, --key value or --key=value (junction help lists them)${script ? `; through npm, put them after --: npm ${script === 'start' ? 'start' : `run ${script}`} -- --port 9000` : ''}`);
  }
  return problems;
}
