// Which Berth service a name on the engine's networks reaches: the resolver answers a service's
// runtime name, and names the engine derives from it.

/**
 * The service a host names: its appName, or a name the engine derives from it (a compose
 * project's `<appName>_web`, `<appName>-web-1`, a service qualified by its network,
 * `<appName>.<network>`); the longest such appName when several fit.
 */
export function serviceNamed<S extends { appName: string }>(host: string, services: readonly S[]): S | undefined {
  const name = host.toLowerCase();
  const fits = (appName: string) => name === appName || ['_', '-', '.'].some((separator) => name.startsWith(`${appName}${separator}`));
  return services.filter((service) => fits(service.appName.toLowerCase()))
    .sort((a, b) => b.appName.length - a.appName.length)[0];
}
