// Browses `_tessera._tcp` by mDNS (bonjour-service) for controllers on the local network.
import { Bonjour } from "bonjour-service";

/** The controllers that answer within `ms` (earlier when `enough` is true of one): name, host, port,
 * addresses and the URL to use (an IPv4 address when one is known). */
export function browse(ms, enough = () => false) {
  return new Promise((resolve) => {
    const bonjour = new Bonjour();
    const found = new Map();
    const finish = () => {
      clearTimeout(timer);
      clearInterval(again);
      browser.stop();
      bonjour.destroy();
      resolve([...found.values()].sort((a, b) => a.name.localeCompare(b.name)));
    };
    const browser = bonjour.find({ type: "tessera" }, (s) => {
      const addresses = s.addresses ?? [];
      const ip = addresses.find((a) => /^\d+\.\d+\.\d+\.\d+$/.test(a));
      const c = {
        name: s.name,
        host: s.host,
        port: s.port,
        addresses,
        url: `http://${ip ?? s.host}${s.port === 80 ? "" : ":" + s.port}`,
      };
      found.set(s.name, c);
      if (enough(c)) finish();
    });
    const timer = setTimeout(finish, ms);
    // asked again every second: a responder may stay silent once (it answered someone else's query)
    const again = setInterval(() => browser.update(), 1000);
  });
}
