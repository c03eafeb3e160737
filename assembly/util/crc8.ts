// CRC-8/SMBUS (polynomial 0x07, initial 0x00, not reflected): the panel bus packet check, which
// panels compute too. A byte at a time from a 256-entry table built at start (256 bytes of memory,
// none of image): every byte on the bus pays one lookup, in an interpreter a third of the nibble
// table's two dependent steps.
const TABLE = memory.data(256);
for (let i: u32 = 0; i < 256; i++) {
  let c = i;
  for (let b = 0; b < 8; b++) c = c & 0x80 ? (c << 1) ^ 0x07 : c << 1;
  store<u8>(TABLE + i, <u8>c);
}

/** The CRC continued over `len` bytes at `ptr` (`crc` below 256: 0, or a previous result). */
export function crc8Update(crc: u32, ptr: usize, len: u32): u32 {
  const end = ptr + len;
  for (; ptr < end; ptr++) crc = load<u8>(TABLE + (crc ^ load<u8>(ptr)));
  return crc;
}
