// CRC-8/SMBUS (polynomial 0x07, initial 0x00, not reflected): the panel bus packet check.
// Panels compute it too, so it stays table-free for their tiny MCUs.

export function crc8Update(crc: u32, ptr: usize, len: u32): u32 {
  for (let i: u32 = 0; i < len; i++) {
    crc ^= <u32>load<u8>(ptr + i);
    for (let b = 0; b < 8; b++) {
      crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
    }
  }
  return crc;
}
