// rp2040js 1.4.1's CPU with its instruction decode as a table: the same instructions, found in
// one step instead of one comparison after another.
//
// CortexM0Core.executeInstruction (dist/cjs/cortex-m0-core.js) finds an instruction by
// testing its opcode against each instruction's pattern in turn, `if (...) {...} else if
// (...)`, about ninety of them: half of a boot's time went there. Here that method's source
// is rewritten when the module loads: each condition of the chain is worked out for every
// 16-bit opcode once (a 64 KB table: the first branch whose condition holds), and the chain
// becomes a `switch` on the table, the branches' code untouched. A 32-bit instruction's
// conditions also read its second half (opcode2), so those opcodes keep the original chain.
// Anything unexpected in the source (another version) leaves the module as it is.
//   require('./decode.cjs') before the first require('rp2040js').
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const WIDE = (opcode) => opcode >> 12 === 0b1111 || opcode >> 11 === 0b11101;   // as the core's
const CHAIN_START = 'let deltaCycles = 1;';
const CHAIN_END = 'this.cycles += deltaCycles;';

// The end of the balanced (...) or {...} that opens at `at`, skipping strings, template
// literals and comments (the chain has no regular expressions).
function closing(src, at) {
  const stack = [];
  for (let i = at; i < src.length; i++) {
    const c = src[i];
    const top = stack[stack.length - 1];
    if (top === '`') {
      if (c === '\\') i++;
      else if (c === '`') stack.pop();
      else if (c === '$' && src[i + 1] === '{') { stack.push('${'); i++; }
      continue;
    }
    if (c === '/' && src[i + 1] === '/') { i = src.indexOf('\n', i); continue; }
    if (c === '/' && src[i + 1] === '*') { i = src.indexOf('*/', i) + 1; continue; }
    if (c === '"' || c === "'") {
      for (i++; src[i] !== c; i++) if (src[i] === '\\') i++;
      continue;
    }
    if (c === '`') stack.push('`');
    else if (c === '(' || c === '{') stack.push(c);
    else if (c === ')' || c === '}') {
      stack.pop();
      if (!stack.length) return i;
    }
  }
  throw new Error('unbalanced');
}

// Skip whitespace and comments from `at`.
function skip(src, at) {
  const space = /(\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/y;
  space.lastIndex = at;
  space.exec(src);
  return space.lastIndex;
}

// [{cond, body}] and the final else's body, from the chain's text.
function parseChain(chain) {
  const branches = [];
  let at = skip(chain, 0);
  let otherwise = null;
  let first = true;
  while (at < chain.length) {
    if (!first) {
      if (!chain.startsWith('else', at)) break;
      at = skip(chain, at + 4);
      if (chain[at] === '{') {
        const end = closing(chain, at);
        otherwise = chain.slice(at, end + 1);
        at = skip(chain, end + 1);
        break;
      }
    }
    if (!chain.startsWith('if', at)) throw new Error(`not an if at ${at}`);
    at = skip(chain, at + 2);
    const condEnd = closing(chain, at);
    const cond = chain.slice(at + 1, condEnd);
    at = skip(chain, condEnd + 1);
    if (chain[at] !== '{') throw new Error('no block');
    const bodyEnd = closing(chain, at);
    branches.push({ cond, body: chain.slice(at, bodyEnd + 1) });
    at = skip(chain, bodyEnd + 1);
    first = false;
  }
  if (at !== chain.length || otherwise === null) throw new Error('chain does not end in else');
  return { branches, otherwise };
}

function rewrite(src) {
  const method = src.indexOf('    executeInstruction() {');
  const start = src.indexOf(CHAIN_START, method);
  const end = src.indexOf(CHAIN_END, start);
  if (method < 0 || start < 0 || end < 0) throw new Error('executeInstruction not found');
  const chainAt = start + CHAIN_START.length;
  const chain = src.slice(chainAt, end);
  const { branches, otherwise } = parseChain(chain);
  const tests = branches.map(({ cond }) => {
    // a condition of the opcode's bits alone: numbers, operators and the two halves
    if (!/^[\sa-z0-9()&|^=!<>~+-]*$/i.test(cond) ||
        (cond.replace(/\b(0b[01]+|0x[0-9a-f]+|\d+)\b/gi, '').match(/[a-z_$][\w$]*/gi) || [])
          .some((w) => !/^opcode2?$/.test(w))) {
      throw new Error(`condition not of the opcode alone: ${cond}`);
    }
    return cond;
  });
  // The chain's conditions as one function returning the first that holds (one compiled
  // call an opcode: the table takes milliseconds, not a call a condition).
  const first = new Function('opcode', 'opcode2', `${tests.map(
    (cond, k) => `if (${cond}) return ${k};`).join('\n')}\nreturn ${tests.length};`);
  const SLOW = branches.length + 1;           // the original chain (32-bit instructions)
  const OTHER = branches.length;              // no branch: the chain's final else
  if (SLOW > 255) throw new Error('too many branches');
  const table = new Uint8Array(65536);
  for (let opcode = 0; opcode < 65536; opcode++) table[opcode] = WIDE(opcode) ? SLOW : first(opcode, 0);
  // The 32-bit instructions' chain: only the branches that can hold for one (those that
  // read opcode2, and those whose opcode pattern is a 32-bit one), in their order; the
  // others never hold there. (The whole chain twice made the method too big to optimize.)
  // (of those that do not read opcode2, the first that holds for the opcode is the last
  // one the chain can reach)
  const reads2 = tests.map((cond) => /opcode2/.test(cond));
  const firstPlain = new Function('opcode', `${tests.map(
    (cond, k) => (reads2[k] ? '' : `if (${cond}) return ${k};`)).join('\n')}return -1;`);
  const reached = new Set();
  for (let opcode = 0; opcode < 65536; opcode++) if (WIDE(opcode)) reached.add(firstPlain(opcode));
  const wideOnes = branches.filter((_, k) => reads2[k] || reached.has(k));
  const wideChain = wideOnes.map(({ cond, body }) => `if (${cond}) ${body}`).join('\n else ')
    + `\n else ${otherwise}`;
  const cases = branches.map(({ body }, k) => `case ${k}: ${body} break;`);
  cases.push(`case ${OTHER}: ${otherwise} break;`);
  cases.push(`default: ${wideChain}`);
  const decoded = `\n        switch (CHROMAWHEEL_DECODE[opcode]) {\n${cases.join('\n')}\n        }\n        `;
  const body = src.slice(0, chainAt) + decoded + src.slice(end);
  const strict = body.match(/^("use strict";|'use strict';)\n/);     // stays the first statement
  const head = strict ? strict[0] : '';
  return {
    source: `${head}const CHROMAWHEEL_DECODE = module.chromawheelDecode;\n${body.slice(head.length)}`,
    table,
  };
}

function install() {
  const file = path.join(path.dirname(require.resolve('rp2040js')), 'cortex-m0-core.js');
  if (require.cache[file]) return false;       // loaded already: too late to rewrite it
  const src = fs.readFileSync(file, 'utf8');
  let rewritten;
  try {
    rewritten = rewrite(src);
  } catch (err) {
    if (process.env.CHROMAWHEEL_EMULATOR_DEBUG) process.stderr.write(`decode: kept the chain: ${err.message}\n`);
    return false;
  }
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  mod.chromawheelDecode = rewritten.table;
  require.cache[file] = mod;                   // before it runs, as require() does (cycles)
  try {
    mod._compile(rewritten.source, file);
  } catch (err) {
    delete require.cache[file];
    throw err;
  }
  mod.loaded = true;
  return true;
}

module.exports = { install, rewrite };
