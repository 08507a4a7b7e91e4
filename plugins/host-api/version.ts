/**
 * The plugin API family. A plugin targets a family, not a host release: the host loads a plugin only when
 * its `apiVersion` equals this constant exactly, and V1 contracts only ever grow compatibly.
 */
export const PLUGIN_API_V1 = 'junction.plugin-api/1' as const;

export type PluginApiVersion = typeof PLUGIN_API_V1;
