/** Refuses a start-up configuration that would expose an unauthenticated server beyond this machine. */
import { JunctionError } from '../../contracts/index.js';
import { isLoopbackHostName } from './loopback.js';

export type AuthMode = 'none' | 'token';

export interface BindPolicyInput {
  host: string;
  mode: AuthMode;
  token?: string | undefined;
}

export function assertBindAllowed({ host, mode, token }: BindPolicyInput): void {
  if (mode === 'none' && !isLoopbackHostName(host)) {
    throw new JunctionError(
      'ConfigInvalid',
      `Refusing to listen on ${host} with authentication mode "none": anyone who can reach this address could drive your plugins and workspace. ` +
        'Bind to 127.0.0.1 (the default) or set mode=token.',
      { details: { host, mode } },
    );
  }
  if (mode === 'token' && !token) {
    throw new JunctionError('ConfigInvalid', 'Authentication mode "token" needs a token; set token=<secret> or let Junction create one in its state directory.', {
      details: { host, mode },
    });
  }
}
