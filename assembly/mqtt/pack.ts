// Packed records for host_mqtt_connect and host_mdns_advertise: u16 little-endian numbers and
// strings as u16 length + UTF-8 bytes (docs/host-abi.md).
export class Packer {
  bytes: Array<u8> = new Array<u8>();

  u16(n: i32): Packer {
    this.bytes.push(<u8>(n & 0xff));
    this.bytes.push(<u8>((n >> 8) & 0xff));
    return this;
  }

  u8(n: i32): Packer {
    this.bytes.push(<u8>n);
    return this;
  }

  str(s: string): Packer {
    const b = String.UTF8.encode(s);
    const p = changetype<usize>(b);
    this.u16(b.byteLength);
    for (let i = 0; i < b.byteLength; i++) this.bytes.push(load<u8>(p + i));
    return this;
  }
}
