// The panel's bootloader half of the flashing exchange (docs/bus-protocol.md, "Flashing a panel").
// On BOOT_ENTER addressed to it the panel leaves its application (its look stays, nothing more is
// applied) and answers every bootloader packet with one BOOT_ACK; the flash itself is the host's
// (panel_flash). LEAVE commits the image and returns to the application; the new image runs from the
// next restart (BOOT_RESTART, or power). A real panel's bootloader is its own program in flash and
// speaks the same packets.
import { panel_flash, PANEL_FLASH_ERASE, PANEL_FLASH_WRITE, PANEL_FLASH_READ } from "./imports";
import { PANEL_FLASH_COMMIT, PANEL_FLASH_RESTART } from "./imports";
import { crc16 } from "../util/crc16";
import { BOOT_PAGE, BOOT_WRITE_HEAD, BOOT_OK, BOOT_BAD_CRC, BOOT_FAILED, BOOT_REFUSED } from "../bus/protocol";
import { T_BOOT_ENTER, T_BOOT_WRITE, T_BOOT_READ, T_BOOT_LEAVE, T_BOOT_RESTART } from "../bus/protocol";

export let booting = false;
const page = memory.data(BOOT_PAGE);

/** Handles a bootloader packet addressed to this panel; writes the BOOT_ACK payload at `ack` and
 * returns true when one is to be sent. */
export function bootPacket(type: u8, body: usize, len: u32, ack: usize): bool {
  const p = <u32>load<u16>(body);
  let status = BOOT_OK;
  let crc: u32 = 0;
  if (type == T_BOOT_RESTART) {
    panel_flash(PANEL_FLASH_RESTART, 0, 0, 0);
    return false;
  }
  if (type == T_BOOT_ENTER) {
    const r = panel_flash(PANEL_FLASH_ERASE, 0, 0, load<u32>(body));
    if (r == -1) return false; // no bootloader answers
    booting = r >= 0;
    if (!booting) status = BOOT_FAILED;
  } else if (!booting) return false;
  else if (type == T_BOOT_WRITE) {
    const n = len - BOOT_WRITE_HEAD;
    if (crc16(body + 4, n) != <u32>load<u16>(body, 2)) status = BOOT_BAD_CRC;
    else if (panel_flash(PANEL_FLASH_WRITE, p * BOOT_PAGE, body + 4, n) < 0) status = BOOT_FAILED;
  } else if (type == T_BOOT_READ) {
    const n = min(<u32>load<u8>(body, 2), BOOT_PAGE);
    const r = panel_flash(PANEL_FLASH_READ, p * BOOT_PAGE, page, n);
    if (r < 0) status = BOOT_FAILED;
    else crc = crc16(page, <u32>r);
  } else if (type == T_BOOT_LEAVE) {
    booting = false;
    if (panel_flash(PANEL_FLASH_COMMIT, 0, 0, 0) < 0) status = BOOT_REFUSED;
  } else return false;
  store<u8>(ack, type);
  store<u16>(ack, type == T_BOOT_WRITE || type == T_BOOT_READ ? <u16>p : 0, 1);
  store<u8>(ack, status, 3);
  store<u16>(ack, <u16>crc, 4);
  return true;
}

/** RESET ends the bootloader (the controller restarted). */
export function bootReset(): void {
  booting = false;
}
