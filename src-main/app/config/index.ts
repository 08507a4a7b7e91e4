export { CONFIG_KEYS, MODES, envNameOf, type Config, type ConfigKey } from './schema.js';
export { parseArgv, readEnv, readSettings, resolveConfig, resolveConfigWithOrigins, type ConfigOrigins } from './resolve.js';
export { loadConfig, userConfigDir, userStateDir, type LoadedConfig } from './load.js';
