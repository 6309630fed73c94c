// The Pico's flash chip for rp2040js, which emulates only reads of it (XIP): MicroPython's
// littlefs erases and programs through the boot ROM's flash routines, so those routines are
// replaced at the boot ROM boundary. Each entry point in the ROM's function table ('RE' erase,
// 'RP' program, and the 'IF' 'EX' 'FC' 'CX' connect / exit-XIP / flush / enter-XIP steps
// around them) gets a BKPT; the emulator's break hook does the operation on the flash array
// and returns to the caller. Erased bytes are 0xFF and programming only clears bits, as on a
// NOR chip.
//
// With an image file, every erase and program is written through to it at once, so killing
// the emulator at any moment is a power cut that keeps exactly what the chip had.
//
// Each operation takes the chip's time on the emulated clock (W25Q16JV datasheet, typical:
// 4 KB sector erase 45 ms, 64 KB block erase 150 ms, 256-byte page program 0.4 ms; the CPU
// waits on the chip's busy bit meanwhile), so a power cut lands inside one as often as on a
// board. cutDuring(k, fraction) arms one: the k-th operation from now is cut that fraction
// of the way through (an erase leaves its whole range erased, the worst a cut erase leaves;
// a program keeps the bytes it finished, in address order), and the process ends with status 5. With `emit`,
// every operation is reported as
//   W <ns> <erase|program> <flash offset> <bytes> <ns it takes>
'use strict';
const fs = require('node:fs');

const FLASH_SIZE = 2 * 1024 * 1024;          // the Pico's W25Q16JV
const SECTOR = 4096;
const BLOCK = 65536;
const PAGE = 256;
const SECTOR_ERASE_NS = 45e6;
const BLOCK_ERASE_NS = 150e6;
const PAGE_PROGRAM_NS = 0.4e6;
const CUT_STATUS = 5;
const OPS = { IF: 1, EX: 2, RE: 3, RP: 4, FC: 5, CX: 6 };

function romHalf(rom, address) {
  return (rom[address >> 2] >>> ((address & 2) * 8)) & 0xffff;
}

function setRomHalf(rom, address, value) {
  const shift = (address & 2) * 8;
  rom[address >> 2] = (rom[address >> 2] & ~(0xffff << shift)) | (value << shift);
}

function romFunctions(rom) {
  // 0x14: a pointer to the table of (two-letter code, function address) halfword pairs.
  const found = {};
  for (let at = romHalf(rom, 0x14); romHalf(rom, at); at += 4) {
    const code = romHalf(rom, at);
    found[String.fromCharCode(code & 0xff, code >> 8)] = romHalf(rom, at + 2) & ~1;
  }
  return found;
}

// The boot ROM's flash_range_erase: 64 KB block erases where a whole aligned block is in
// range (the SDK passes block size 64 KB and command 0xD8), 4 KB sector erases elsewhere.
function eraseNanos(start, count) {
  let ns = 0;
  for (let at = start; at < start + count;) {
    if (at % BLOCK === 0 && at + BLOCK <= start + count) { ns += BLOCK_ERASE_NS; at += BLOCK; }
    else { ns += SECTOR_ERASE_NS; at += SECTOR; }
  }
  return ns;
}

function programNanos(start, count) {
  return (Math.floor((start + count - 1) / PAGE) - Math.floor(start / PAGE) + 1) * PAGE_PROGRAM_NS;
}

function attachFlash(mcu, imagePath, emit = null) {
  const flash = mcu.flash;
  const functions = romFunctions(mcu.bootrom);
  const byCode = {};
  for (const [name, code] of Object.entries(OPS)) {
    if (functions[name] === undefined) throw new Error(`boot ROM has no '${name}' function`);
    setRomHalf(mcu.bootrom, functions[name], 0xbe00 | code);   // BKPT #code
    byCode[code] = name;
  }
  const fd = imagePath ? fs.openSync(imagePath, 'r+') : null;
  const persist = (start, length) => {
    if (fd !== null) fs.writeSync(fd, flash, start, length, start);
  };
  const stats = { erased: 0, programmed: 0 };
  let cut = null;                            // { left: operations to let finish, fraction }
  const take = (kind, start, count, ns) => {
    if (emit) emit(`W ${Math.round(mcu.clock.nanos)} ${kind} ${start} ${count} ${Math.round(ns)}`);
    if (cut !== null && cut.left-- === 0) return cut.fraction;
    return null;
  };
  const powerCut = (ns) => {
    mcu.clock.tick(ns);
    if (emit) emit(`X ${Math.round(mcu.clock.nanos)}`);
    process.exit(CUT_STATUS);                // the image has what the chip had
  };
  mcu.onBreak = (code) => {
    const name = byCode[code];
    const core = mcu.core;
    const r = core.registers;
    if (name === undefined) {
      process.stderr.write(`BKPT ${code} at 0x${(core.PC - 2).toString(16)}\n`);
      return;
    }
    if (name === 'RE') {                     // flash_range_erase(offset, count, block, cmd)
      const start = r[0] >>> 0;
      const count = r[1] >>> 0;
      if (start + count <= FLASH_SIZE) {
        const ns = eraseNanos(start, count);
        const cutAt = take('erase', start, count, ns);
        flash.fill(0xff, start, start + count);
        persist(start, count);
        stats.erased += count;
        if (cutAt !== null) powerCut(ns * cutAt);
        mcu.clock.tick(ns);
      }
    } else if (name === 'RP') {              // flash_range_program(offset, data, count)
      const start = r[0] >>> 0;
      const data = r[1] >>> 0;
      const count = r[2] >>> 0;
      if (start + count <= FLASH_SIZE) {
        const ns = programNanos(start, count);
        const cutAt = take('program', start, count, ns);
        // Cut: the bytes programmed before it (the chip goes in address order).
        const end = cutAt === null ? start + count : start + Math.floor(cutAt * count);
        for (let i = 0; start + i < end; i++) flash[start + i] &= mcu.readUint8(data + i);
        persist(start, count);
        stats.programmed += end - start;
        if (cutAt !== null) powerCut(ns * cutAt);
        mcu.clock.tick(ns);
      }
    }
    core.PC = r[14] & ~1;                    // return to the caller (LR)
  };
  stats.cutDuring = (k, fraction) => { cut = { left: k, fraction }; };
  return stats;
}

// Flash contents at power-up: the image if there is one, else the UF2 on an erased chip
// (and a new image made of that).
function loadFlash(mcu, uf2Path, imagePath, loadUf2) {
  if (imagePath && fs.existsSync(imagePath)) {
    const image = fs.readFileSync(imagePath);
    mcu.flash.fill(0xff);
    mcu.flash.set(image.subarray(0, FLASH_SIZE));
    return;
  }
  mcu.flash.fill(0xff);
  loadUf2(uf2Path);
  if (imagePath) fs.writeFileSync(imagePath, mcu.flash.subarray(0, FLASH_SIZE));
}

module.exports = { attachFlash, loadFlash, romFunctions, FLASH_SIZE };
