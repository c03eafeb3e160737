// CRC-16/IBM as the WebSocket protocol uses it: reflected, polynomial 0xA001, initial value 0xFFFF
// (the parameters known as CRC-16/MODBUS).

// A byte at a time: the CRC table is linear (T[a ^ b] = T[a] ^ T[b]), so a byte's entry is the xor of
// its two nibbles' (T[x] = HI[x >> 4] ^ LO[x & 15]): two independent lookups in 64 bytes instead of a
// 512-byte table, and half the work of two dependent nibble steps.
const LO = memory.data<u16>([
  0x0000, 0xc0c1, 0xc181, 0x0140, 0xc301, 0x03c0, 0x0280, 0xc241, 0xc601, 0x06c0, 0x0780, 0xc741, 0x0500, 0xc5c1,
  0xc481, 0x0440,
]);
const HI = memory.data<u16>([
  0x0000, 0xcc01, 0xd801, 0x1400, 0xf001, 0x3c00, 0x2800, 0xe401, 0xa001, 0x6c00, 0x7800, 0xb401, 0x5000, 0x9c01,
  0x8801, 0x4400,
]);

export function crc16Update(crc: u32, ptr: usize, len: u32): u32 {
  crc &= 0xffff;
  // the tables' addresses as load offsets, and the test at the bottom: the fewest operations a byte
  // for an interpreter
  const end = ptr + len;
  if (ptr < end)
    do {
      const x = (crc ^ load<u8>(ptr)) & 0xff;
      crc = (crc >> 8) ^ load<u16>((x >> 3) & 0x1e, HI) ^ load<u16>((x & 15) << 1, LO);
    } while (++ptr < end);
  return crc;
}

export function crc16(ptr: usize, len: u32): u32 {
  return crc16Update(0xffff, ptr, len);
}
