// CRC-8/SMBUS (polynomial 0x07, initial 0x00, not reflected): the panel bus packet check, which
// panels compute too. A nibble at a time: a 16-byte table instead of 8 shifts per byte (see crc16.ts).
const NIBBLE: StaticArray<u8> = [
  0x00, 0x07, 0x0e, 0x09, 0x1c, 0x1b, 0x12, 0x15, 0x38, 0x3f, 0x36, 0x31, 0x24, 0x23, 0x2a, 0x2d,
];

export function crc8Update(crc: u32, ptr: usize, len: u32): u32 {
  for (let i: u32 = 0; i < len; i++) {
    crc ^= <u32>load<u8>(ptr + i);
    crc = ((crc << 4) & 0xff) ^ (<u32>unchecked(NIBBLE[crc >> 4]));
    crc = ((crc << 4) & 0xff) ^ (<u32>unchecked(NIBBLE[crc >> 4]));
  }
  return crc;
}
