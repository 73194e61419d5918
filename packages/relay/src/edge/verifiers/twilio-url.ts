const HIERARCHICAL = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([\s\S]*)$/;

/**
 * The texts of `url` that Twilio may have signed, as Twilio's own validators try them: the URL
 * without a port, then with one (the scheme's default port, 443 for https and 80 otherwise, when the
 * URL names none). Twilio's signing back end is inconsistent about the port, so a signature over
 * either is genuine. Nothing else is normalized: host case, percent-encoding and the query string
 * stay exactly as written.
 */
export function twilioUrlVariants(url: string): readonly string[] {
  const match = HIERARCHICAL.exec(url);
  if (match === null) return [url];
  const [, scheme = '', authority = '', rest = ''] = match;
  const at = authority.lastIndexOf('@');
  const userinfo = authority.slice(0, at + 1);
  const { host, port } = splitPort(authority.slice(at + 1));
  const prefix = `${scheme}://${userinfo}${host}`;
  const defaultPort = scheme.toLowerCase() === 'https' ? '443' : '80';
  const without = `${prefix}${rest}`;
  const withPort = `${prefix}:${port === undefined || port === '' ? defaultPort : port}${rest}`;
  return without === withPort ? [without] : [without, withPort];
}

/** A `host[:port]` split in two; `port` is undefined when there is no colon after the host. */
function splitPort(hostPort: string): { host: string; port: string | undefined } {
  const hostEnd = hostPort.startsWith('[') ? hostPort.indexOf(']') + 1 : 0;
  const colon = hostPort.indexOf(':', hostEnd);
  if (colon < 0 || !/^[0-9]*$/.test(hostPort.slice(colon + 1))) return { host: hostPort, port: undefined };
  return { host: hostPort.slice(0, colon), port: hostPort.slice(colon + 1) };
}
