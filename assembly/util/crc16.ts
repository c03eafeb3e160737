// CRC-16/IBM as the WebSocket protocol uses it: reflected, polynomial 0xA001, initial value 0xFFFF
// (the parameters known as CRC-16/MODBUS).

// A byte at a time from a 256-entry table built at start (512 bytes of memory, none of image): in an
// interpreter a frame's check costs a third of two nibble steps a byte.
const TABLE = memory.data(512);
for (let i: u32 = 0; i < 256; i++) {
  let c = i;
  for (let b = 0; b < 8; b++) c = c & 1 ? (c >> 1) ^ 0xa001 : c >> 1;
  store<u16>(TABLE + (i << 1), <u16>c);
}

export function crc16Update(crc: u32, ptr: usize, len: u32): u32 {
  crc &= 0xffff;
  const end = ptr + len;
  for (; ptr < end; ptr++) crc = (crc >> 8) ^ load<u16>(TABLE + (((crc ^ load<u8>(ptr)) & 0xff) << 1));
  return crc;
}

export function crc16(ptr: usize, len: u32): u32 {
  return crc16Update(0xffff, ptr, len);
}
