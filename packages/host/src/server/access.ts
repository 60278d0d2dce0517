import { hostname, networkInterfaces } from 'node:os';
import { CoworkError } from '../errors';

/**
 * DNS-rebinding and cross-site protection. A page on evil.example can make a browser send
 * requests to 127.0.0.1 (by rebinding its own name to it), but the browser then sends
 * `Host: evil.example`; and a page that merely links or posts to the server sends its own
 * `Origin`. So every request, WebSocket upgrades included, must name the server in `Host`, and
 * carry no `Origin` or the server's own.
 */
export class HostAllowList {
  private hosts = new Set<string>();

  constructor(
    private readonly listenHost: string,
    private readonly extra: readonly string[] = [],
  ) {}

  /** Recomputes the list for the port actually bound (`--port 0` is only known after listening). */
  setPort(port: number): void {
    const names = new Set<string>(['localhost', '127.0.0.1', '[::1]', bracket(this.listenHost), ...this.extra.map(bracket)]);
    if (this.listenHost === '0.0.0.0' || this.listenHost === '::') {
      // Listening everywhere: the machine's own names and addresses are legitimate ways to call it.
      names.add(hostname());
      for (const infos of Object.values(networkInterfaces())) for (const info of infos ?? []) names.add(bracket(info.address));
    }
    this.hosts = new Set();
    for (const name of names) {
      const lower = name.toLowerCase();
      this.hosts.add(`${lower}:${port}`);
      if (port === 80) this.hosts.add(lower);
    }
  }

  allows(hostHeader: string | undefined): boolean {
    return hostHeader !== undefined && this.hosts.has(hostHeader.trim().toLowerCase());
  }
}

/** Throws `forbidden_origin` unless `Host` is allowed and `Origin` is absent or the same origin. */
export function checkHostAndOrigin(allowList: HostAllowList, host: string | undefined, origin: string | undefined): void {
  if (!allowList.allows(host)) {
    throw new CoworkError('forbidden_origin', `this server does not answer to Host ${JSON.stringify(host ?? '')}`, { header: 'host' });
  }
  if (origin === undefined) return;
  // Same origin: the scheme this server speaks and exactly the host the request was sent to.
  if (origin.toLowerCase() !== `http://${host!.trim().toLowerCase()}`) {
    throw new CoworkError('forbidden_origin', `requests from origin ${JSON.stringify(origin)} are not allowed`, { header: 'origin' });
  }
}

function bracket(address: string): string {
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
}
