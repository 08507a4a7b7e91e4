/** The version handshake decision: a plugin is compatible when its hub API major version equals ours. */
// The functions used, not the package's index, which loads all of semver's ranges and comparators at start.
import coerce from 'semver/functions/coerce.js';
import lt from 'semver/functions/lt.js';
import major from 'semver/functions/major.js';
import { API_VERSION, EXTENSION_FEATURES, EXTENSIONS_VERSION, type RequestVersionHandshake, type VersionHandshakeResponse } from '../../../plugins/sdk/wire/index.js';

export function evaluateHandshake(request: RequestVersionHandshake, serverVersion: string, serverApiVersion = API_VERSION): VersionHandshakeResponse {
  const base = { apiVersion: serverApiVersion, serverVersion };
  const theirs = coerce(request.apiVersion);
  if (!theirs) {
    return { ...base, compatible: false, message: `The plugin's API version '${request.apiVersion}' is not a semantic version; this server speaks API ${serverApiVersion}.` };
  }
  if (major(theirs) !== major(serverApiVersion)) {
    return {
      ...base,
      compatible: false,
      message: `The plugin speaks hub API ${request.apiVersion}, this server speaks ${serverApiVersion}; update the ${lt(theirs, serverApiVersion) ? 'plugin' : 'server'} so the major versions match.`,
    };
  }
  // The extension answer goes only to plugins that asked, so McpPlugin clients see the 8.x response unchanged.
  const extensions = request.extensions ? { extensions: { version: EXTENSIONS_VERSION, features: [...EXTENSION_FEATURES] } } : {};
  return { ...base, compatible: true, message: 'Version handshake successful.', ...extensions };
}
