// The two CRCs of the protocols, against the catalogue check values ("123456789").
// WebSocket frames: CRC-16/IBM reflected 0xA001, init 0xFFFF (CRC-16/MODBUS, check 0x4B37).
// Panel bus packets: CRC-8/SMBUS, polynomial 0x07, init 0 (check 0xF4).
import { crc16, crc16Update } from "../util/crc16";
import { crc8Update } from "../util/crc8";
import { crc8Table } from "../util/crc8-table";

function ptr(b: ArrayBuffer): usize {
  return changetype<usize>(b);
}

const CHECK = String.UTF8.encode("123456789");
const EMPTY = new ArrayBuffer(0);

describe("crc16 (CRC-16/MODBUS)", () => {
  it("of 123456789 is 0x4B37", () => {
    expect<u32>(crc16(ptr(CHECK), CHECK.byteLength)).toBe(0x4b37);
  });

  it("of nothing is the initial value 0xFFFF", () => {
    expect<u32>(crc16(ptr(EMPTY), 0)).toBe(0xffff);
  });

  it("of one zero byte is 0x40BF", () => {
    const b = new ArrayBuffer(1);
    expect<u32>(crc16(ptr(b), 1)).toBe(0x40bf);
  });

  it("can be computed in pieces", () => {
    const first = crc16Update(0xffff, ptr(CHECK), 4);
    expect<u32>(crc16Update(first, ptr(CHECK) + 4, 5)).toBe(0x4b37);
  });

  it("fits in 16 bits", () => {
    const b = new ArrayBuffer(256);
    for (let i = 0; i < 256; i++) store<u8>(ptr(b) + i, <u8>(255 - i));
    expect<u32>(crc16(ptr(b), 256) >> 16).toBe(0);
  });
});

describe("crc8 (CRC-8/SMBUS)", () => {
  it("of 123456789 is 0xF4", () => {
    expect<u32>(crc8Update(0, ptr(CHECK), CHECK.byteLength)).toBe(0xf4);
  });

  it("of nothing is the initial value 0", () => {
    expect<u32>(crc8Update(0, ptr(EMPTY), 0)).toBe(0);
  });

  it("of the single byte 0x01 is the polynomial 0x07", () => {
    const b = new ArrayBuffer(1);
    store<u8>(ptr(b), 1);
    expect<u32>(crc8Update(0, ptr(b), 1)).toBe(0x07);
  });

  it("can be computed in pieces", () => {
    const first = crc8Update(0, ptr(CHECK), 3);
    expect<u32>(crc8Update(first, ptr(CHECK) + 3, 6)).toBe(0xf4);
  });
});

describe("crc8Table (CRC-8/SMBUS, the controller's)", () => {
  it("of 123456789 is 0xF4", () => {
    expect<u32>(crc8Table(0, ptr(CHECK), CHECK.byteLength)).toBe(0xf4);
  });

  it("is crc8Update for every single byte and every start value", () => {
    const b = new ArrayBuffer(1);
    let same = true;
    for (let crc: u32 = 0; crc < 256; crc++)
      for (let v = 0; v < 256; v++) {
        store<u8>(ptr(b), <u8>v);
        if (crc8Table(crc, ptr(b), 1) != crc8Update(crc, ptr(b), 1)) same = false;
      }
    expect<bool>(same).toBe(true);
  });
});
