/**
 * Gives a plugin the name Fastify reports it by. Without one, Fastify looks for the plugin among the
 * exports of every CommonJS module loaded (a few hundred), twice per registration: about 3 ms of every
 * app built, the docs and tests' apps included.
 */
export function named<Plugin extends object>(name: string, plugin: Plugin): Plugin {
  (plugin as Record<symbol, string>)[Symbol.for('fastify.display-name')] = name;
  return plugin;
}
