// CRC-8/SMBUS (polynomial 0x07, initial 0x00, not reflected): the panel bus packet check, which
// panels compute too. A byte at a time: the CRC table is linear (T[a ^ b] = T[a] ^ T[b]), so a byte's
// entry is the xor of its two nibbles' (T[x] = HI[x >> 4] ^ LO[x & 15]): two independent lookups in
// 32 bytes instead of a 256-byte table, and half the work of two dependent nibble steps.
const LO = memory.data<u8>([
  0x00, 0x07, 0x0e, 0x09, 0x1c, 0x1b, 0x12, 0x15, 0x38, 0x3f, 0x36, 0x31, 0x24, 0x23, 0x2a, 0x2d,
]);
const HI = memory.data<u8>([
  0x00, 0x70, 0xe0, 0x90, 0xc7, 0xb7, 0x27, 0x57, 0x89, 0xf9, 0x69, 0x19, 0x4e, 0x3e, 0xae, 0xde,
]);

/** The CRC continued over `len` bytes at `ptr` (`crc` below 256: 0, or a previous result). */
export function crc8Update(crc: u32, ptr: usize, len: u32): u32 {
  // the tables' addresses as load offsets, and the test at the bottom: the fewest operations a byte
  // for an interpreter
  const end = ptr + len;
  if (ptr < end)
    do {
      const x = crc ^ load<u8>(ptr);
      crc = load<u8>(x >> 4, HI) ^ load<u8>(x & 15, LO);
    } while (++ptr < end);
  return crc;
}
