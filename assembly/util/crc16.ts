// CRC-16/IBM as the WebSocket protocol uses it: reflected, polynomial 0xA001, initial value 0xFFFF
// (the parameters known as CRC-16/MODBUS).

// A nibble at a time: a 16-entry table (32 bytes of image) instead of 8 shifts per byte, so a
// WebSocket frame's check costs a fraction of what it did in an interpreter.
const NIBBLE: StaticArray<u16> = [
  0x0000, 0xcc01, 0xd801, 0x1400, 0xf001, 0x3c00, 0x2800, 0xe401, 0xa001, 0x6c00, 0x7800, 0xb401, 0x5000, 0x9c01,
  0x8801, 0x4400,
];

export function crc16Update(crc: u32, ptr: usize, len: u32): u32 {
  for (let i: u32 = 0; i < len; i++) {
    crc ^= <u32>load<u8>(ptr + i);
    crc = (crc >> 4) ^ (<u32>unchecked(NIBBLE[crc & 15]));
    crc = (crc >> 4) ^ (<u32>unchecked(NIBBLE[crc & 15]));
  }
  return crc & 0xffff;
}

export function crc16(ptr: usize, len: u32): u32 {
  return crc16Update(0xffff, ptr, len);
}
