// Browses `_tessera._tcp` by mDNS (multicast-dns) for controllers on the local network. Each
// service is followed as RFC 6763 describes: PTR -> the instance's SRV (port, host) -> the host's A
// record, asking for whatever an answer's additional records did not bring (the desktop host's
// bonjour-service sends them all at once; the POSIX host's libmdnsd answers a PTR query with the PTR
// alone).
import makeMdns from "multicast-dns";

const SERVICE = "_tessera._tcp.local";

/** The controllers that answer within `ms` (earlier when `enough` is true of one): name, host, port,
 * addresses and the URL to use (an IPv4 address when one is known). */
export function browse(ms, enough = () => false) {
  return new Promise((resolve) => {
    const mdns = makeMdns();
    const services = new Map(); // instance -> { host, port }
    const addresses = new Map(); // host -> Set of addresses
    const asked = new Set();
    const controllers = () =>
      [...services.entries()]
        .filter(([, s]) => s.host)
        .map(([instance, s]) => {
          const list = [...(addresses.get(s.host.toLowerCase()) ?? [])];
          const ip = list.find((a) => /^\d+\.\d+\.\d+\.\d+$/.test(a));
          return {
            name: instance.slice(0, -SERVICE.length - 1),
            host: s.host,
            port: s.port,
            addresses: list,
            url: `http://${ip ?? s.host}${s.port === 80 ? "" : ":" + s.port}`,
          };
        })
        .sort((a, b) => a.name.localeCompare(b.name));
    const finish = () => {
      clearTimeout(timer);
      clearInterval(again);
      mdns.destroy();
      resolve(controllers());
    };
    const ask = (name, type) => {
      if (asked.has(type + name)) return;
      asked.add(type + name);
      mdns.query({ questions: [{ name, type }] });
    };
    mdns.on("response", (packet) => {
      const records = [...packet.answers, ...(packet.additionals ?? [])];
      for (const r of records) {
        const name = String(r.name);
        if (r.type === "PTR" && name.toLowerCase() === SERVICE && !services.has(r.data)) services.set(r.data, {});
        else if (r.type === "SRV" && services.has(name)) services.set(name, { host: r.data.target, port: r.data.port });
        else if (r.type === "A" || r.type === "AAAA") {
          const set = addresses.get(name.toLowerCase()) ?? new Set();
          addresses.set(name.toLowerCase(), set.add(r.data));
        }
      }
      for (const [instance, s] of services) {
        if (!s.host) ask(instance, "SRV");
        else if (!addresses.has(s.host.toLowerCase())) ask(s.host, "A");
      }
      const done = controllers().find((c) => c.addresses.length > 0 && enough(c));
      if (done) finish();
    });
    const query = () => {
      asked.clear();
      mdns.query({ questions: [{ name: SERVICE, type: "PTR" }] });
    };
    query();
    const timer = setTimeout(finish, ms);
    // asked again every second, as browsers do: a packet may be lost
    const again = setInterval(query, 1000);
  });
}
