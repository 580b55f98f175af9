// warpscope.js: the page's platform. It runs warpscope.wasm (the viewer's own C: session, scene,
// panels, lesson driver; web/page.c) and gives it what a desktop gives a program:
//  - files: a small file system in memory, behind the WASI calls wasi-libc makes; it holds the
//    pack (lessons, themes, results, traces) and what the page writes: lesson progress, kept in the
//    browser's storage, and files dropped on the page;
//  - text measurement: the browser's (measureText per glyph, cached), so Chinese is drawn and laid
//    out with the system's fonts;
//  - the canvas executor: the draw list's seven primitives on a 2D canvas;
//  - input: keys by the key table's names, the mouse, touch, a clicker's PageDown and PageUp.
'use strict';

(function () {
  const FONTS = ['"Noto Sans", "DejaVu Sans", "WenQuanYi Micro Hei", "Noto Sans CJK SC", "Microsoft YaHei", "PingFang SC", sans-serif',
                 '"DejaVu Sans Mono", "Noto Sans Mono", "WenQuanYi Micro Hei Mono", Menlo, Consolas, monospace'];
  const STORE = 'warpscope:'; // the browser's storage: progress files by path
  const DEC = new TextDecoder(), ENC = new TextEncoder(); // one each: a frame makes none
  const E = { SUCCESS: 0, BADF: 8, EXIST: 20, INVAL: 28, ISDIR: 31, NOENT: 44, NOSYS: 52, NOTDIR: 54 };

  // ---- files ----
  const files = new Map();  // path without a leading slash -> Uint8Array
  const dirs = new Set(['']);
  function addDirsOf(path) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  function putFile(path, bytes) { files.set(path, bytes); addDirsOf(path); }
  function norm(base, rel) {
    const out = base ? base.split('/') : [];
    for (const p of rel.split('/')) {
      if (p === '' || p === '.') continue;
      if (p === '..') out.pop(); else out.push(p);
    }
    return out.join('/');
  }
  // The pack, read as it arrives: "WSPACK1\n", then per file its name's length, its name, its size
  // (4-byte little-endian lengths) and its bytes. An entry with no name and no bytes marks the end
  // of what the first picture needs (the page starts there). The build ends warpscope.pack there and
  // puts the rest in warpscope.rest.pack (its entries alone), fed on behind it; a pack in one file
  // (entries after its mark) is whole as it is. Every
  // length is checked against the bytes there are, and a name must stay inside the page's files
  // and away from what the page writes itself (progress under home/, dropped files).
  const PACK_NAME_MAX = 1024, PACK_FILE_MAX = 64 << 20, PACK_MAX = 512 << 20;
  class PackError extends Error {}
  function packName(bytes) {
    let name;
    try { name = new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch (e) { throw new PackError('a name that is not UTF-8'); }
    const parts = name.split('/');
    if (!name || name.startsWith('/') || name.includes('\\') || name.includes('\0') || parts.some((p) => p === '' || p === '.' || p === '..'))
      throw new PackError('a name outside its folder: ' + JSON.stringify(name.slice(0, 80)));
    if (parts[0] === 'home' || parts[0] === 'dropped') throw new PackError('a name where the page keeps its own files: ' + JSON.stringify(name.slice(0, 80)));
    return name;
  }
  function Unpacker(onMark) {
    let buf = new Uint8Array(0), total = 0, magic = false, marked = false, after = 0;
    // the chunks come small: they are kept until the next entry is whole (`need` bytes) and joined
    // once, rather than copied again with every chunk
    let held = [], have = 0, need = 8;
    const names = new Set();
    this.feed = (chunk) => {
      total += chunk.length;
      if (total > PACK_MAX) throw new PackError('more than ' + (PACK_MAX >> 20) + ' MB');
      held.push(chunk); have += chunk.length;
      if (have < need) return;
      buf = new Uint8Array(have);
      for (let i = 0, o = 0; i < held.length; o += held[i].length, i++) buf.set(held[i], o);
      held = []; have = 0; need = 8;
      let at = 0;
      if (!magic) {
        if (DEC.decode(buf.subarray(0, 8)) !== 'WSPACK1\n') throw new PackError('not a warpscope pack');
        magic = true; at = 8;
      }
      const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
      for (;;) {
        if (buf.length - at < 4) { need = 8; break; }
        const nlen = dv.getUint32(at, true);
        if (nlen > PACK_NAME_MAX) throw new PackError('a name of ' + nlen + ' bytes');
        if (buf.length - at < 8 + nlen) { need = 8 + nlen; break; }
        const size = dv.getUint32(at + 4 + nlen, true);
        if (size > PACK_FILE_MAX) throw new PackError('a file of ' + size + ' bytes');
        if (nlen === 0) {
          if (size !== 0) throw new PackError('a file with no name');
          if (marked) throw new PackError('two ends of the first part');
          at += 8; marked = true; onMark(); continue;
        }
        if (buf.length - at - 8 - nlen < size) { need = 8 + nlen + size; break; }
        const name = packName(buf.subarray(at + 4, at + 4 + nlen));
        if (names.has(name)) throw new PackError('two files named ' + JSON.stringify(name));
        names.add(name);
        if (marked) after++;
        putFile(name, buf.slice(at + 8 + nlen, at + 8 + nlen + size));
        at += 8 + nlen + size;
      }
      buf = buf.slice(at);
      if (buf.length) { held = [buf]; have = buf.length; }
    };
    this.end = () => {
      if (!magic) throw new PackError(total ? 'not a warpscope pack' : 'an empty file');
      if (have) throw new PackError('cut short: ' + have + ' bytes of an unfinished file at its end');
      if (!marked) throw new PackError('cut short: it ends before the first picture\'s files do');
    };
    // at the end of a file: does the pack go on in warpscope.rest.pack (it ended at its mark)?
    this.goesOn = () => { this.end(); return after === 0; };
  }
  function persist(path) {
    if (!path.startsWith('home/')) return;
    const b = files.get(path);
    try {
      if (!b) { localStorage.removeItem(STORE + path); return; }
      let s = '';
      for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]);
      localStorage.setItem(STORE + path, btoa(s));
    } catch (e) { /* storage full or refused: progress is kept for this visit only */ }
  }
  function restore() {
    dirs.add('home');
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (!k.startsWith(STORE)) continue;
        const s = atob(localStorage.getItem(k)), b = new Uint8Array(s.length);
        for (let j = 0; j < s.length; j++) b[j] = s.charCodeAt(j);
        putFile(k.slice(STORE.length), b);
      }
    } catch (e) { /* no storage: nothing to restore */ }
  }

  // ---- WASI, as much of it as wasi-libc asks for here ----
  let mem = null, wasm = null;
  const u8m = () => new Uint8Array(mem.buffer), dvm = () => new DataView(mem.buffer);
  const strAt = (p, n) => DEC.decode(u8m().subarray(p, p + n));
  const fds = [null, null, null, { dir: '', pre: '/' }, { dir: '', pre: '.' }]; // 3 and 4: the preopened root
  let consoleLine = ['', '', ''];
  function fdOf(fd) { return fd >= 0 && fd < fds.length ? fds[fd] : null; }
  function newFd(o) { let i = 5; while (fds[i]) i++; fds[i] = o; return i; }
  function filestat(p, isDir, size) {
    const dv = dvm();
    for (let i = 0; i < 64; i += 4) dv.setUint32(p + i, 0, true);
    dv.setUint8(p + 16, isDir ? 3 : 4);
    dv.setBigUint64(p + 24, 1n, true);
    dv.setBigUint64(p + 32, BigInt(size), true);
  }
  const wasi = {
    environ_sizes_get(cnt, size) { dvm().setUint32(cnt, 1, true); dvm().setUint32(size, 11, true); return 0; },
    environ_get(env, buf) { const s = ENC.encode('HOME=/home\0'); u8m().set(s, buf); dvm().setUint32(env, buf, true); return 0; },
    fd_prestat_get(fd, p) {
      const f = fdOf(fd);
      if (!f || !f.pre) return E.BADF;
      dvm().setUint8(p, 0); dvm().setUint32(p + 4, f.pre.length, true); return 0;
    },
    fd_prestat_dir_name(fd, p, n) { const f = fdOf(fd); if (!f || !f.pre) return E.BADF; u8m().set(ENC.encode(f.pre).subarray(0, n), p); return 0; },
    fd_fdstat_get(fd, p) {
      const f = fdOf(fd), dv = dvm();
      if (fd > 2 && !f) return E.BADF;
      dv.setUint8(p, fd <= 2 ? 2 : f.dir !== undefined ? 3 : 4);
      dv.setUint16(p + 2, 0, true);
      dv.setBigUint64(p + 8, 0xffffffffffffffffn, true); dv.setBigUint64(p + 16, 0xffffffffffffffffn, true);
      return 0;
    },
    fd_fdstat_set_flags() { return 0; },
    fd_sync() { return 0; },
    fd_filestat_get(fd, p) {
      const f = fdOf(fd);
      if (!f) return fd <= 2 ? (filestat(p, false, 0), 0) : E.BADF;
      filestat(p, f.dir !== undefined, f.dir !== undefined ? 0 : f.data.length); return 0;
    },
    path_filestat_get(fd, flags, pp, pn, p) {
      const f = fdOf(fd); if (!f || f.dir === undefined) return E.BADF;
      const path = norm(f.dir, strAt(pp, pn));
      if (dirs.has(path)) { filestat(p, true, 0); return 0; }
      if (!files.has(path)) return E.NOENT;
      filestat(p, false, files.get(path).length); return 0;
    },
    path_open(fd, dirflags, pp, pn, oflags, rb, ri, fdflags, out) {
      const f = fdOf(fd); if (!f || f.dir === undefined) return E.BADF;
      const path = norm(f.dir, strAt(pp, pn));
      const creat = oflags & 1, directory = oflags & 2, excl = oflags & 4, trunc = oflags & 8;
      if (dirs.has(path)) {
        if (creat && excl) return E.EXIST;
        dvm().setUint32(out, newFd({ dir: path }), true); return 0;
      }
      if (directory) return files.has(path) ? E.NOTDIR : E.NOENT;
      if (files.has(path) && creat && excl) return E.EXIST;
      if (!files.has(path)) {
        if (!creat) return E.NOENT;
        const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
        if (!dirs.has(parent)) return E.NOENT;
        files.set(path, new Uint8Array(0));
      }
      if (trunc) files.set(path, new Uint8Array(0));
      dvm().setUint32(out, newFd({ path, data: files.get(path), pos: 0, len: files.get(path).length, append: fdflags & 1, dirty: false }), true);
      return 0;
    },
    fd_close(fd) {
      const f = fdOf(fd); if (!f || fd < 5) return E.BADF;
      if (f.dirty) { files.set(f.path, f.data.slice(0, f.len)); persist(f.path); }
      fds[fd] = null; return 0;
    },
    fd_read(fd, iovs, n, nread) {
      const f = fdOf(fd); if (!f || !f.data) return E.BADF;
      const dv = dvm(), m = u8m(); let got = 0;
      for (let i = 0; i < n; i++) {
        const p = dv.getUint32(iovs + 8 * i, true), len = dv.getUint32(iovs + 8 * i + 4, true);
        const k = Math.max(0, Math.min(len, f.len - f.pos));
        m.set(f.data.subarray(f.pos, f.pos + k), p); f.pos += k; got += k;
        if (k < len) break;
      }
      dv.setUint32(nread, got, true); return 0;
    },
    fd_write(fd, iovs, n, nwritten) {
      const dv = dvm(), m = u8m(); let put = 0;
      const f = fdOf(fd);
      for (let i = 0; i < n; i++) {
        const p = dv.getUint32(iovs + 8 * i, true), len = dv.getUint32(iovs + 8 * i + 4, true);
        const bytes = m.subarray(p, p + len);
        if (fd === 1 || fd === 2) {
          consoleLine[fd] += DEC.decode(bytes);
          let nl;
          while ((nl = consoleLine[fd].indexOf('\n')) >= 0) { console.log('warpscope: ' + consoleLine[fd].slice(0, nl)); consoleLine[fd] = consoleLine[fd].slice(nl + 1); }
        } else {
          if (!f || !f.data) return E.BADF;
          if (f.append) f.pos = f.len;
          if (f.pos + len > f.data.length) { const d = new Uint8Array(Math.max(f.pos + len, 2 * f.data.length)); d.set(f.data.subarray(0, f.len)); f.data = d; }
          f.data.set(bytes, f.pos); f.pos += len; f.len = Math.max(f.len, f.pos); f.dirty = true;
        }
        put += len;
      }
      dv.setUint32(nwritten, put, true); return 0;
    },
    fd_seek(fd, off, whence, out) {
      const f = fdOf(fd); if (!f || !f.data) return E.BADF;
      const base = whence === 0 ? 0 : whence === 1 ? f.pos : f.len, pos = base + Number(off);
      if (pos < 0) return E.INVAL;
      f.pos = pos; dvm().setBigUint64(out, BigInt(pos), true); return 0;
    },
    fd_readdir(fd, buf, len, cookie, used) {
      const f = fdOf(fd); if (!f || f.dir === undefined) return E.BADF;
      const pre = f.dir ? f.dir + '/' : '', names = new Set();
      for (const k of files.keys()) if (k.startsWith(pre) && !k.slice(pre.length).includes('/')) names.add(k.slice(pre.length));
      for (const k of dirs) if (k && k.startsWith(pre) && !k.slice(pre.length).includes('/')) names.add(k.slice(pre.length));
      const list = [...names].sort(), dv = dvm(), m = u8m(), enc = ENC;
      let at = 0;
      for (let i = Number(cookie); i < list.length; i++) {
        const name = enc.encode(list[i]), head = new Uint8Array(24), hv = new DataView(head.buffer);
        hv.setBigUint64(0, BigInt(i + 1), true); hv.setBigUint64(8, BigInt(i + 1), true);
        hv.setUint32(16, name.length, true); hv.setUint8(20, dirs.has(pre + list[i]) ? 3 : 4);
        const entry = new Uint8Array(24 + name.length); entry.set(head); entry.set(name, 24);
        const k = Math.min(entry.length, len - at);
        m.set(entry.subarray(0, k), buf + at); at += k;
        if (at >= len) break;
      }
      dv.setUint32(used, at, true); return 0;
    },
    path_create_directory(fd, pp, pn) { const f = fdOf(fd); if (!f) return E.BADF; const p = norm(f.dir, strAt(pp, pn)); if (dirs.has(p) || files.has(p)) return E.EXIST; dirs.add(p); return 0; },
    path_rename(fd, op, on, fd2, np, nn) {
      const a = fdOf(fd), b = fdOf(fd2); if (!a || !b) return E.BADF;
      const from = norm(a.dir, strAt(op, on)), to = norm(b.dir, strAt(np, nn));
      if (!files.has(from)) return E.NOENT;
      files.set(to, files.get(from)); files.delete(from); persist(from); persist(to); return 0;
    },
    path_unlink_file(fd, pp, pn) { const f = fdOf(fd); if (!f) return E.BADF; const p = norm(f.dir, strAt(pp, pn)); if (!files.delete(p)) return E.NOENT; persist(p); return 0; },
    proc_exit(code) { throw new Error('warpscope exited with ' + code); },
  };

  // ---- text: the browser measures ----
  const canvas = document.getElementById('warpscope');
  const ctx = canvas.getContext('2d');
  const advances = new Map(), heights = new Map(), ascents = new Map();
  const fontOf = (f, px) => px + 'px ' + FONTS[f] ;
  function measureLine(f, px) {
    const k = f * 4096 + px;
    if (!heights.has(k)) {
      ctx.font = fontOf(f, px);
      const m = ctx.measureText('Mg\u4e2d');
      ascents.set(k, Math.ceil(m.fontBoundingBoxAscent));
      heights.set(k, Math.ceil(m.fontBoundingBoxAscent) + Math.ceil(m.fontBoundingBoxDescent));
    }
    return k;
  }
  const metrics = {
    advance(f, px, cp) {
      const k = (f * 4096 + px) * 0x110000 + cp;
      let a = advances.get(k);
      if (a === undefined) { ctx.font = fontOf(f, px); a = Math.round(ctx.measureText(String.fromCodePoint(cp)).width); advances.set(k, a); }
      return a;
    },
    height(f, px) { return heights.get(measureLine(f, px)); },
  };
  // the table the desktop reads back (warpscope render --metrics) to lay text out as the page did
  function metricsTable() {
    const advance = [], height = [];
    for (const [k, a] of advances) { const cp = k % 0x110000, fp = (k - cp) / 0x110000; advance.push([Math.floor(fp / 4096), fp % 4096, cp, a]); }
    for (const [k, h] of heights) height.push([Math.floor(k / 4096), k % 4096, h]);
    return { advance, height };
  }

  // ---- the canvas executor ----
  const KIND = { FILL: 0, RECT: 1, LINE: 2, ARROW: 3, TEXT: 4, CLIP: 5, UNCLIP: 6 };
  function rgba(c) { return 'rgba(' + (c >>> 24) + ',' + ((c >>> 16) & 255) + ',' + ((c >>> 8) & 255) + ',' + ((c & 255) / 255) + ')'; }
  function line(x1, y1, x2, y2, thick) {
    ctx.lineWidth = thick; ctx.lineCap = 'round';
    ctx.beginPath(); ctx.moveTo(x1 + 0.5, y1 + 0.5); ctx.lineTo(x2 + 0.5, y2 + 0.5); ctx.stroke();
  }
  function execute() {
    // every call into the module first: one may grow its memory, which detaches the views made before
    const n = wasm.ws_item_count(), w = wasm.ws_item_ints(), at = wasm.ws_items(), text = wasm.ws_text(), dec = DEC;
    if (!at && n) { fail(W('failed', W('memory'))); return; }
    const items = new Int32Array(mem.buffer, at, n * w), m = u8m();
    ctx.save();
    let clips = 0;
    for (let i = 0; i < n; i++) {
      const o = i * w, kind = items[o], x = items[o + 1], y = items[o + 2], iw = items[o + 3], ih = items[o + 4];
      const col = rgba(items[o + 8]), thick = items[o + 7];
      switch (kind) {
        case KIND.FILL: ctx.fillStyle = col; ctx.fillRect(x, y, iw, ih); break;
        case KIND.RECT:
          ctx.fillStyle = col;
          for (let k = 0; k < thick && 2 * k < iw && 2 * k < ih; k++) {
            ctx.fillRect(x + k, y + k, iw - 2 * k, 1); ctx.fillRect(x + k, y + ih - 1 - k, iw - 2 * k, 1);
            ctx.fillRect(x + k, y + k, 1, ih - 2 * k); ctx.fillRect(x + iw - 1 - k, y + k, 1, ih - 2 * k);
          }
          break;
        case KIND.LINE: ctx.strokeStyle = col; line(x, y, items[o + 5], items[o + 6], thick); break;
        case KIND.ARROW: {
          const x2 = items[o + 5], y2 = items[o + 6];
          ctx.strokeStyle = col; line(x, y, x2, y2, thick);
          const dx = x2 - x, dy = y2 - y, len = Math.hypot(dx, dy);
          if (len < 1) break;
          const ux = dx / len, uy = dy / len, hl = 4 + 2 * thick;
          for (const s of [-1, 1]) line(x2, y2, x2 - Math.round(hl * (ux - s * 0.5 * uy)), y2 - Math.round(hl * (uy + s * 0.5 * ux)), thick);
          break;
        }
        case KIND.TEXT: {
          const f = items[o + 9], px = items[o + 10], to = items[o + 11], len = items[o + 12];
          const k = measureLine(f, px);
          ctx.font = fontOf(f, px); ctx.fillStyle = col; ctx.textBaseline = 'alphabetic';
          // at most the width the list measured: the browser's whole-string layout (kerning,
          // Chinese punctuation) may differ from the sum of the glyphs' advances
          ctx.fillText(dec.decode(m.subarray(text + to, text + to + len)), x, y + ascents.get(k), Math.max(1, iw));
          break;
        }
        case KIND.CLIP: ctx.save(); clips++; ctx.beginPath(); ctx.rect(x, y, iw, ih); ctx.clip(); break;
        case KIND.UNCLIP: if (clips > 0) { ctx.restore(); clips--; } break;
      }
    }
    while (clips-- > 0) ctx.restore();
    ctx.restore();
  }

  // ---- strings in and out of the module ----
  function withString(s, fn) {
    const b = ENC.encode(s + '\0'), p = wasm.ws_alloc(b.length);
    u8m().set(b, p);
    try { return fn(p); } finally { wasm.ws_free(p); }
  }
  function cstr(p) { const m = u8m(); let e = p; while (m[e]) e++; return DEC.decode(m.subarray(p, e)); }

  // ---- the page's own words, in both languages (the C has its own table: strings.h) ----
  const WORDS = {
    en: {
      loading: 'Loading warpscope…', loadingOf: 'Loading warpscope: %1 of %2 kB',
      prevStep: 'Previous step', nextStep: 'Next step', play: 'Play', lessons: 'Lessons', help: 'Help', version: 'Version',
      compare: 'Compare', copy: 'Copy link', prevPage: 'Previous page', nextPage: 'Next page', answer: 'Answer', hint: 'Hint',
      yourAnswer: 'Your answer', close: 'Close', page: 'page %1 of %2', versions: 'Versions of the kernel',
      placeLanes: 'lanes, e.g. 0 2 4 6 or 0-30 even', placeBanks: 'banks, e.g. 0 4 8 or 0-31', placeCells: 'words, e.g. 0 1 2 3 or 0-15 odd',
      placeNumber: 'a number', placeChoice: 'a letter: a, b, c…',
      notNumbers: 'Type the numbers of your answer, for example 0 2 4 6, or a range: 0-30 even.',
      notAnswer: 'That is not an answer to this question.',
      copied: 'The link is copied: it opens this picture.', notCopied: 'The browser would not copy; the link is in the address bar.',
      canvas: 'warpscope: the picture of the step. The text after the controls says what it shows.',
      step: 'Step %1 of %2', line: 'line %1: %3', lineOnly: 'line %1', phase: 'phase %1',
      question: 'Question: %1', right: 'Right.', wrong: 'Not quite.', revealed: 'The answer is shown.',
      options: 'Options: %1', option: '%1) %2',
      menuOpen: 'The lessons. Choose one.',
      unknownAction: 'This link asks for what the page cannot do, left out: %1',
      badPack: 'The page\'s data (warpscope.pack) is damaged or incomplete (%1). Reload the page; if this stays, the site needs to be built again.',
      noWasm: 'This browser cannot run the page: it needs WebAssembly and a current browser (%1).',
      failed: 'The page stopped: %1', memory: 'out of memory while drawing',
      write: 'Write a kernel', editorTitle: 'Your kernel', kernelSource: 'Kernel source', run: 'Run', check: 'Check',
      entry: 'Entry', block: 'Block', exercise: 'Exercise', freeKernel: 'No exercise: a kernel of your own', yourName: 'Your name',
      compareWith: 'Compare with', noCompare: 'Compare with: nothing',
      needServe: 'Writing kernels needs `warpscope serve`: this page is a plain static site (the lessons work as they are).',
      noEditor: 'This page was built without its editor (npm was missing): a plain text field stands in.',
      running: 'Running your kernel…', checking: 'Checking your kernel against the exercise\'s goals…',
      ran: 'Your kernel ran on the %1: n = %2, result %3; the double-precision sum of its input is %4 (%5). %6 steps.',
      within: 'within the tolerance', off: 'off by %1', races: ' Races found: %1.', emulator: 'CPU emulator',
      compileError: 'Line %1, column %2: %3', entryError: 'Entry, column %1: %2', entryErrorAll: 'Entry: %1', traceLink: 'The trace of this link did not come: %1', notOpened: 'The trace came back but did not open: %1',
      busy: 'The server is busy: try again in %1 s.', busyWait: 'The server is busy: sent again by itself in %1 s.', tooBig: 'The file is too large for the server (1 MiB at most).',
      serverSaid: 'The server answered %1: %2', noServerNow: 'The server did not answer (%1).',
      badN: 'n must be a whole number from 1 to 67108864.', badBlock: 'Block must be a whole number from 1 to 1024.', noEntry: 'Say how to run the file: the entry, e.g. reduce<<<n / 256, 256>>>(in, out, n).',
      nameFirst: 'Type your name first: the teacher sees your checks under it.',
      task: 'The task', hintN: 'Hint %1', stale: 'This picture is of an earlier run: the file in the editor did not build.',
      checked: '%1 of %2 goals met in %3 runs.', solved: 'Every goal met: solved.', didNotRun: 'It did not run: %1',
      missed: 'Missed: %1.', brokenAt: 'first broken at %1', measured: 'measured %1, goal %2', notRun: 'not measured',
      bound_at_most: 'at most %1', bound_at_least: 'at least %1', bound_equals: '%1',
      // the lab's GPU timing of a Check (api/gpu): its line in the checklist, and the tries' chart
      gpuWaiting: 'Timing on the GPU…', gpuQueued: 'Timing on the GPU… (%1 in the queue)', gpuNext: 'Timing on the GPU… (next in the queue)',
      gpuRunning: 'Timing on the GPU… (running now)', gpuWrong: 'Wrong on the card: %1', gpuFailed: 'Not timed on the card: %1',
      gpuLate: 'No timing came back from the GPU in %1 minutes: Check again later.', gpuUnread: 'The GPU timing could not be read: %1',
      checklistName: 'The goals, checked', gpuAnnounce: 'GPU: %1', tries1: '1 try timed: %2 GB/s; best %3', triesN: '%1 tries timed: %2 GB/s; best %3',
      triesLast: '%1 tries timed, the last %4: %2 GB/s; best %3', best: 'best %1', listSep: ', ',
      // the step's sentence (liveText): what its picture shows, from the scene's facts
      stepOf: '%1, step %2 of %3', atLine: ', line %1', lanes: ': %1 working, %2 diverged, %3 idle', atBarrier: ', %1 at the barrier', exited: ', %1 exited',
      conflict: '; warp %1: bank conflict degree %2', noConflict: '; no bank conflict', partials: '; %1 partial sums stored', partial1: '; 1 partial sum stored',
      shuffle: '; warp %1 shuffles: %2 lanes take a value from %3 lanes %4', up: 'up', down: 'down', ticket: '; block %1 draws ticket %2',
      result: '; result %1, reference %2: %3', v_right: 'right', v_wrong: 'wrong', v_racing: 'right here but racing', v_unchecked: 'not checked',
      gridView: 'Grid view: %1, pass %2 of %3: %4 of %5 threads over %6 elements', blocks1: '1 block', blocksN: '%1 blocks', gridWave: '; wave %1 of %2 on %3', gridEnded: '; the launch has ended on %1',
      passesView: 'Passes view: %1, %2 launches: %3', passesOne: 'Passes view: %1, one launch: %2', launch: '%1 of %2 threads over %3 elements',
      benchView: 'Benchmark: %1, %2 elements, %3: the fastest of %4 versions is %5 at %6 ms (%7 GB/s)', benchNone: 'Benchmark: %1, %2 elements, %3: no version timed',
      mode_launch: 'per launch', mode_batch: 'a batch of launches', themeSaid: '%1 theme. ', theme_dark: 'Dark', theme_light: 'Light', langSaid: 'English. ',
      comparing: 'Comparing %1 with %2. ', kind_shared_load: 'shared load', kind_shared_store: 'shared store', kind_global_load: 'global load',
      kind_global_store: 'global store', kind_global_atomic: 'atomic', kind_shuffle: 'shuffle', kind_barrier: 'barrier', kind_warp_sync: 'warp sync', kind_exit: 'exit',
      hasQuestion: 'This page asks a question: Read (Shift+R) reads it.', read: 'Read', readAloud: 'Read the page aloud (Shift+R)',
      more: 'More', moreTitle: 'More controls', helpTitle: 'What each control does', helpKeys: 'Keys (when the picture has focus)',
      phasePrev: 'Previous phase', phaseNext: 'Next phase', slower: 'Slower', faster: 'Faster', schedule: 'Break it: another schedule',
      drop: 'Break it: drop a barrier', undrop: 'Put the barriers back', grid: 'The grid of blocks', passes: 'The passes', bench: 'The benchmark',
      gridN: 'Grid: 2^20 elements, or back (N)', benchMode: 'Benchmark: per launch or batch timing (M)', benchGpu: 'Benchmark: the next GPU (Down)',
      theme: 'Light or dark', language: '中文', motion: 'Motion on or off', screenshot: 'Save a screenshot', openTrace: 'Open a trace…',
      shortcutsOn: 'Single-key shortcuts: on', shortcutsOff: 'Single-key shortcuts: off', navSteps: 'Steps and views', navLesson: 'The lesson',
      c_step: 'one step back or forward (Left, Right; a swipe on a phone)', c_play: 'plays the steps, or pauses (Space)', c_lessons: 'the lessons: choose one',
      c_version: 'the versions of the kernel: open one', c_compare: 'shows two versions side by side (C)', c_help: 'this list (F1)',
      c_write: 'write and run a kernel of your own', c_more: 'phase, speed, break it, grid, benchmark, theme, language, screenshot, open a trace',
      c_copy: 'copies a link that opens this picture', c_pages: 'a lesson\'s pages (PgUp, PgDn; a swipe on a phone)', c_read: 'reads the lesson\'s page and question aloud (Shift+R)',
      c_answer: 'type your answer, then Answer (Enter); Hint shows it (H)', c_picture: 'the picture: a tap on a lane or a cell keeps its details shown; with the picture focused, Down and Up move a cursor over them (Shift: a row)',
    },
    zh: {
      loading: '正在加载 warpscope……', loadingOf: '正在加载 warpscope：%1 / %2 kB',
      prevStep: '上一步', nextStep: '下一步', play: '播放', lessons: '课程', help: '帮助', version: '版本',
      compare: '对比', copy: '复制链接', prevPage: '上一页', nextPage: '下一页', answer: '作答', hint: '提示',
      yourAnswer: '你的答案', close: '关闭', page: '第 %1 页，共 %2 页', versions: '内核的各个版本',
      placeLanes: 'lane，如 0 2 4 6 或 0-30 偶数', placeBanks: 'bank，如 0 4 8 或 0-31', placeCells: '字，如 0 1 2 3 或 0-15 奇数',
      placeNumber: '一个数', placeChoice: '一个字母：a、b、c……',
      notNumbers: '请输入答案中的编号，例如 0 2 4 6，或一个范围：0-30 偶数。',
      notAnswer: '这不是这道题的答案。',
      copied: '链接已复制：打开它就是这幅画面。', notCopied: '浏览器无法复制；链接就在地址栏中。',
      canvas: 'warpscope：这一步的画面。控件之后的文字说明它显示的内容。',
      step: '第 %1 步，共 %2 步', line: '第 %1 行：%3', lineOnly: '第 %1 行', phase: '阶段 %1',
      question: '问题：%1', right: '正确。', wrong: '不太对。', revealed: '已显示答案。',
      options: '选项：%1', option: '%1）%2',
      menuOpen: '课程列表，请选择一课。',
      unknownAction: '此链接要求的操作本页无法完成，已略去：%1',
      badPack: '本页的数据（warpscope.pack）已损坏或不完整（%1）。请重新加载本页；若问题依旧，需要重新构建网站。',
      noWasm: '此浏览器无法运行本页：需要支持 WebAssembly 的较新浏览器（%1）。',
      failed: '本页已停止：%1', memory: '绘制时内存不足',
      write: '编写内核', editorTitle: '你的内核', kernelSource: '内核源代码', run: '运行', check: '检查',
      entry: '入口', block: '线程块', exercise: '练习', freeKernel: '不做练习：自己的内核', yourName: '你的名字',
      compareWith: '对比', noCompare: '对比：无',
      needServe: '编写内核需要 `warpscope serve`：本页是普通的静态网站（课程照常可用）。',
      noEditor: '本页构建时没有编辑器（缺少 npm）：以普通文本框代替。',
      running: '正在运行你的内核……', checking: '正在按练习的目标检查你的内核……',
      ran: '你的内核在%1上运行：n = %2，结果 %3；输入的双精度和为 %4（%5）。共 %6 步。',
      within: '在容差之内', off: '相差 %1', races: '发现竞争：%1 处。', emulator: 'CPU 模拟器',
      compileError: '第 %1 行，第 %2 列：%3', entryError: '入口，第 %1 列：%2', entryErrorAll: '入口：%1', traceLink: '此链接的跟踪没有取到：%1', notOpened: '跟踪已返回，但没有打开：%1',
      busy: '服务器正忙：请 %1 秒后再试。', busyWait: '服务器正忙：%1 秒后自动重新发送。', tooBig: '文件太大，服务器不接受（最多 1 MiB）。',
      serverSaid: '服务器回答 %1：%2', noServerNow: '服务器没有回答（%1）。',
      badN: 'n 必须是 1 到 67108864 之间的整数。', badBlock: '线程块必须是 1 到 1024 之间的整数。', noEntry: '请写明如何运行这个文件：入口，例如 reduce<<<n / 256, 256>>>(in, out, n)。',
      nameFirst: '请先输入你的名字：老师按名字看到你的检查结果。',
      task: '任务', hintN: '提示 %1', stale: '这幅画面来自之前的一次运行：编辑器里的文件没有编译成功。',
      checked: '达成 %1 / %2 个目标，共运行 %3 次。', solved: '所有目标都已达成：完成。', didNotRun: '没有运行：%1',
      missed: '未达成：%1。', brokenAt: '最先在 %1 时被打破', measured: '测得 %1，目标 %2', notRun: '未测量',
      bound_at_most: '至多 %1', bound_at_least: '至少 %1', bound_equals: '%1',
      gpuWaiting: '正在 GPU 上计时……', gpuQueued: '正在 GPU 上计时……（排队第 %1 位）', gpuNext: '正在 GPU 上计时……（下一个就是你）',
      gpuRunning: '正在 GPU 上计时……（正在运行）', gpuWrong: '在显卡上算错了：%1', gpuFailed: '没有在显卡上计时：%1',
      gpuLate: '%1 分钟内 GPU 没有返回计时：请稍后再检查。', gpuUnread: '无法读取 GPU 计时：%1',
      checklistName: '目标的检查结果', gpuAnnounce: 'GPU：%1', tries1: '已计时 1 次：%2 GB/s；最好 %3', triesN: '已计时 %1 次：%2 GB/s；最好 %3',
      triesLast: '已计时 %1 次，最近 %4 次：%2 GB/s；最好 %3', best: '最好 %1', listSep: '、',
      stepOf: '%1，第 %2 步，共 %3 步', atLine: '，第 %1 行', lanes: '：%1 个线程在工作，%2 个分化，%3 个空闲', atBarrier: '，%1 个在屏障处等待', exited: '，%1 个已退出',
      conflict: '；warp %1：bank 冲突度 %2', noConflict: '；没有 bank 冲突', partials: '；存入 %1 个部分和', partial1: '；存入 1 个部分和',
      shuffle: '；warp %1 洗牌：%2 个 lane 从%4方 %3 个 lane 处取值', up: '上', down: '下', ticket: '；线程块 %1 取到第 %2 号',
      result: '；结果 %1，参考值 %2：%3', v_right: '正确', v_wrong: '错误', v_racing: '此处正确但有竞争', v_unchecked: '未检查',
      gridView: '网格视图：%1，第 %2 轮（共 %3 轮）：%4，每块 %5 个线程，共 %6 个元素', blocks1: '1 个线程块', blocksN: '%1 个线程块', gridWave: '；%3 上第 %1 波（共 %2 波）', gridEnded: '；%1 上这次启动已结束',
      passesView: '各轮视图：%1，%2 次启动：%3', passesOne: '各轮视图：%1，一次启动：%2', launch: '%1，每块 %2 个线程，共 %3 个元素',
      benchView: '基准测试：%1，%2 个元素，%3：%4 个版本中最快的是 %5，%6 毫秒（%7 GB/s）', benchNone: '基准测试：%1，%2 个元素，%3：没有计时的版本',
      mode_launch: '每次启动', mode_batch: '一批启动', themeSaid: '%1主题。', theme_dark: '深色', theme_light: '浅色', langSaid: '中文。',
      comparing: '对比 %1 与 %2。', kind_shared_load: '共享内存读', kind_shared_store: '共享内存写', kind_global_load: '全局内存读',
      kind_global_store: '全局内存写', kind_global_atomic: '原子操作', kind_shuffle: '洗牌', kind_barrier: '屏障', kind_warp_sync: '线程束同步', kind_exit: '退出',
      hasQuestion: '本页有一道题：“朗读”（Shift+R）读出它。', read: '朗读', readAloud: '朗读本页（Shift+R）',
      more: '更多', moreTitle: '更多控件', helpTitle: '各个控件的作用', helpKeys: '按键（画面有焦点时）',
      phasePrev: '上一阶段', phaseNext: '下一阶段', slower: '慢一些', faster: '快一些', schedule: '弄坏它：换一种调度',
      drop: '弄坏它：去掉一个屏障', undrop: '恢复屏障', grid: '线程块网格', passes: '各次启动', bench: '基准测试',
      gridN: '网格：2^20 个元素，或恢复（N）', benchMode: '基准测试：单次启动 / 批量计时（M）', benchGpu: '基准测试：换一块 GPU（Down）',
      theme: '浅色或深色', language: 'English', motion: '动画开或关', screenshot: '保存截图', openTrace: '打开跟踪文件……',
      shortcutsOn: '单键快捷键：开', shortcutsOff: '单键快捷键：关', navSteps: '步骤与视图', navLesson: '课程',
      c_step: '后退或前进一步（左、右方向键；手机上滑动）', c_play: '播放或暂停（空格）', c_lessons: '课程：选择一课',
      c_version: '内核的各个版本：打开一个', c_compare: '并排显示两个版本（C）', c_help: '本列表（F1）',
      c_write: '编写并运行你自己的内核', c_more: '阶段、速度、弄坏它、网格、基准测试、主题、语言、截图、打开跟踪文件',
      c_copy: '复制打开这幅画面的链接', c_pages: '课程的各页（PgUp、PgDn；手机上滑动）', c_read: '朗读本页课程和题目（Shift+R）',
      c_answer: '输入答案，然后“作答”（回车）；“提示”显示答案（H）', c_picture: '画面：点一下 lane 或格子，其详情保持显示；画面有焦点时，下、上方向键在它们之间移动光标（Shift：一行）',
    },
  };
  const query = new URLSearchParams(location.search);
  let lang = query.get('lang') === 'zh' || query.get('lang') === 'en' ? query.get('lang') : (navigator.language || '').startsWith('zh') ? 'zh' : 'en';
  function W(k, ...a) { let t = WORDS[lang][k] || WORDS.en[k]; a.forEach((v, i) => { t = t.split('%' + (i + 1)).join(String(v)); }); return t; }
  const $ = (id) => document.getElementById(id);

  // ---- the frame loop ----
  let pending = false, firstPicture = 0;
  const stage = $('picture'); // the canvas's box: the stage less a list open beside or below it
  function size() {
    const dpr = window.devicePixelRatio || 1;
    const cw = Math.max(1, stage.clientWidth), ch = Math.max(1, stage.clientHeight);
    const w = Math.max(160, Math.round(cw * dpr)), h = Math.max(120, Math.round(ch * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    canvas.style.width = cw + 'px'; canvas.style.height = ch + 'px';
    return dpr;
  }
  function frame() {
    pending = false;
    const dpr = size();
    // text at least 12 CSS pixels: the browser's zoom (a larger devicePixelRatio) makes it larger
    // and on a dense screen (a phone) no value in a cell under 12 CSS pixels: a panel too small for
    // them shows fewer items or its summary; at pixel ratio 1 the desktop's own least holds
    const moving = wasm.ws_frame(canvas.width, canvas.height, performance.now(), Math.round(12 * dpr), dpr >= 1.5 ? Math.round(12 * dpr) : 0);
    if (moving < 0) { fail(W('failed', W('memory'))); return; }
    execute();
    if (!firstPicture) { firstPicture = performance.now(); document.body.dataset.firstPicture = String(Math.round(firstPicture)); $('loading').hidden = true; editorStart(); }
    const req = wasm.ws_requests();
    if (req & 1) savePng();
    if (req & 2) { if (document.fullscreenElement) document.exitFullscreen(); else document.documentElement.requestFullscreen().catch(() => {}); }
    chrome();
    if (moving) redraw();
  }
  function redraw() { if (!pending) { pending = true; requestAnimationFrame(frame); } }
  function savePng() {
    const name = 'warpscope-' + (cstr(wasm.ws_version()) || 'bench') + '-step' + wasm.ws_step() + '.png';
    canvas.toBlob((b) => { const a = document.createElement('a'); a.href = URL.createObjectURL(b); a.download = name; a.click(); setTimeout(() => URL.revokeObjectURL(a.href), 1000); });
  }
  function fail(msg) {
    const p = $('trouble');
    p.textContent = msg; p.hidden = false;
    $('loading').hidden = true;
    console.error('warpscope: ' + msg);
  }
  // one closable line in the page's words
  let noticeTimer = 0;
  function notice(msg, brief) {
    $('notice-text').textContent = msg; $('notice').hidden = false;
    $('live').textContent = msg;
    clearTimeout(noticeTimer);
    if (brief) noticeTimer = setTimeout(() => { $('notice').hidden = true; }, 4000);
  }

  // ---- the page's controls, the live region and the address follow the state ----
  let S = {}, lastJson = '', lastLive = '', lastBase = '', lastDetails = '', versionsOpen = false, urlTimer = 0, urlKeep = '';
  function state() { return JSON.parse(cstr(wasm.ws_state_json()) || '{}'); }
  function label(id, text) { const b = $(id); b.setAttribute('aria-label', text); b.title = text; const l = b.querySelector('.label'); if (l) l.textContent = text; }
  function words() {
    document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
    label('step-prev', W('prevStep')); label('step-next', W('nextStep')); label('play', W('play'));
    label('lessons', W('lessons')); label('version', W('version')); label('compare', W('compare')); label('help', W('help'));
    label('copy', W('copy')); label('page-prev', W('prevPage')); label('page-next', W('nextPage')); label('notice-close', W('close'));
    label('more', W('more')); label('read', W('read')); $('read').title = W('readAloud');
    versionName();
    $('bar').setAttribute('aria-label', W('navSteps')); $('lessonbar').setAttribute('aria-label', W('navLesson'));
    $('more-title').textContent = W('moreTitle'); $('help-title').textContent = W('helpTitle'); $('help-keys-title').textContent = W('helpKeys');
    for (const b of document.querySelectorAll('#more-items [data-w]')) b.textContent = W(b.dataset.w);
    shortcutsShown();
    helpItems.key = '';
    $('answer-go').textContent = W('answer'); $('answer-go').removeAttribute('aria-label');
    $('hint').textContent = W('hint'); $('hint').title = W('hint') + ' (H)';
    $('answer').setAttribute('aria-label', W('yourAnswer'));
    $('menu-title').textContent = W('lessons'); $('versions-title').textContent = W('versions');
    canvas.setAttribute('aria-label', W('canvas'));
    edWords();
  }
  // the Version button's name holds what it shows ("v2 Version"): a name that says less than the
  // button shows is one a speech user cannot say (WCAG 2.5.3)
  function versionName() { const n = $('version-id').textContent + ' ' + W('version'); $('version').setAttribute('aria-label', n); $('version').title = n; $('version').querySelector('.label').textContent = W('version'); }
  // The step's sentence: what its picture shows, from the facts the scene drew it from (web/page.c's
  // step_facts): the version and step, the lanes, the worst bank conflict, the tree's stores, a
  // shuffle, a ticket, and at the last step the result and its verdict.
  function stepSentence(st, f) {
    const t = [W('stepOf', f.version || st.version, st.step, st.steps - 1)];
    if (st.line) t.push(W('atLine', st.line));
    if (f.kind && WORDS.en['kind_' + f.kind]) t.push(lang === 'zh' ? '（' + W('kind_' + f.kind) + '）' : ' (' + W('kind_' + f.kind) + ')');
    t.push(W('lanes', f.working, f.diverged, f.idle));
    if (f.barrier) t.push(W('atBarrier', f.barrier));
    if (f.exited) t.push(W('exited', f.exited));
    if (f.bankDegree > 1) t.push(W('conflict', f.bankWarp, f.bankDegree));
    else if (f.bankDegree === 1) t.push(W('noConflict'));
    if (f.partials) t.push(f.partials === 1 ? W('partial1') : W('partials', f.partials));
    if (f.shuffleLanes) t.push(W('shuffle', f.shuffleWarp, f.shuffleLanes, Math.abs(f.shuffleDelta), W(f.shuffleDelta > 0 ? 'down' : 'up')));
    if (f.ticket !== undefined) t.push(W('ticket', f.ticketBlock, f.ticket));
    if (f.last) t.push(W('result', num(f.result), num(f.reference), W('v_' + f.verdict)));
    return t.join('') + (lang === 'zh' ? '。' : '.');
  }
  // What the live region says after a change: one short sentence of what the picture shows. The
  // lesson's narration and question, the step's code line and the explanation of an answer are
  // read on request (Read, Shift+R: readAloud), not on every page turn or step.
  function liveText(st) {
    const parts = [];
    if (edSay) parts.push(edSay);
    if (st.overlay === 'menu') parts.push(W('menuOpen'));
    const comma = lang === 'zh' ? '，' : ', ', stop = lang === 'zh' ? '。' : '.';
    if (st.lesson) parts.push(st.lessonTitle + comma + W('page', st.page + 1, st.pages) + stop);
    if (st.compare && st.facts && st.facts2) parts.push(W('comparing', st.version, st.compare));
    if (st.view) parts.push(viewSentence(st, st.view));
    else if (st.steps && st.facts) parts.push(stepSentence(st, st.facts));
    else if (st.steps) parts.push(W('step', st.step, st.steps - 1) + (st.line ? comma + W('lineOnly', st.line) : '') + stop);
    if (st.compare && st.facts2) parts.push(stepSentence(Object.assign({}, st, { line: 0 }), st.facts2));
    if (st.status) parts.push(st.status);
    if (st.lesson && st.ask && st.answerState === 'open') parts.push(W('hasQuestion'));
    if (st.lesson && st.ask && st.answerState !== 'open') parts.push(feedbackText(st));
    return parts.join(lang === 'zh' ? '' : ' ');
  }
  // after an answer: right or not, and why (the trace's count of right, wrong and missing picks, or
  // the lesson's explanation)
  function feedbackText(st) {
    return W(st.answerState) + (st.explain ? (lang === 'zh' ? '' : ' ') + st.explain.replace(/\s+/g, ' ') : '');
  }
  // Read (Shift+R): the step's line of code, and in a lesson its page's narration, question and
  // the answer's explanation
  function readAloud() {
    const st = S, parts = [], comma = lang === 'zh' ? '，' : ', ', stop = lang === 'zh' ? '。' : '.';
    if (st.lesson) parts.push(st.lessonTitle + comma + W('page', st.page + 1, st.pages) + stop);
    if (st.lesson && st.say) parts.push(st.say.replace(/\s+/g, ' '));
    if (st.lesson && st.ask && st.prompt) parts.push(W('question', st.prompt.replace(/\s+/g, ' ')));
    if (st.lesson && st.ask === 'choice' && (st.options || []).length) parts.push(W('options', optionTexts(st).join(lang === 'zh' ? '；' : '; ')) + stop);
    if (st.lesson && st.ask && st.answerState !== 'open') parts.push(W(st.answerState) + (st.explain ? ' ' + st.explain.replace(/\s+/g, ' ') : ''));
    if (st.line) parts.push(st.code && st.code.trim() ? W('line', st.line, st.phase, st.code.trim()) + stop : '');
    setLive(parts.join(lang === 'zh' ? '' : ' '), true);
  }
  // a view over the step's picture (the grid, the passes, the benchmark) in one sentence, as a
  // step's is said, from the facts the C read from the trace or the results (view_facts in page.c)
  function blocks(n) { return n === 1 ? W('blocks1') : W('blocksN', num(n)); }
  function viewSentence(st, v) {
    const stop = lang === 'zh' ? '。' : '.', sep = lang === 'zh' ? '；' : '; ';
    if (v.kind === 'grid')
      return W('gridView', st.version, v.pass + 1, v.passes, blocks(v.blocks), num(v.block), num(v.n)) +
             (v.wave === -1 && v.waves > 1 ? W('gridEnded', v.card) : v.waves > 1 ? W('gridWave', (v.wave < 0 ? v.waves - 1 : v.wave) + 1, v.waves, v.card) : '') + stop;
    if (v.kind === 'passes') {
      const l = (v.launches || []).map((x) => W('launch', blocks(x.blocks), num(x.block), num(x.n)));
      return (l.length === 1 ? W('passesOne', st.version, l[0]) : W('passesView', st.version, l.length, l.join(sep))) + stop;
    }
    if (v.kind === 'bench')
      return (v.fastest ? W('benchView', v.device, num(v.n), W('mode_' + v.mode), v.versions, v.fastest, num(+v.ms.toPrecision(3)), num(Math.round(v.gbs)))
                        : W('benchNone', v.device, num(v.n), W('mode_' + v.mode))) + stop;
    return '';
  }
  // a choice's options as they are said and shown: "a) Fewer divergent warps, …"
  function optionTexts(st) { return (st.options || []).map((o, i) => W('option', String.fromCharCode(97 + i), o.replace(/\s+/g, ' ').replace(/[.。]$/, ''))); }
  // a choice answered by its button: the letter typed, then Answer
  function choose(i) {
    if (!S.ask || S.ask !== 'choice') return;
    const ok = call(() => withString(String.fromCharCode(97 + i), (p) => wasm.ws_answer_text(p)));
    if (ok !== 0) return;
    $('notice').hidden = true;
    key('Return');
  }
  // where the student goes on in a lesson: the question while it is open, else the next page
  function lessonFocus(st) {
    if (st.ask && (st.answerState === 'open' || st.answerState === 'wrong')) {
      const c = st.ask === 'choice' && $('choices').querySelector('button:not(:disabled)');
      return c || $('answer');
    }
    return !$('page-next').disabled ? $('page-next') : $('read');
  }
  // the live region: while playing, at most one line a second (the latest), so a screen reader is
  // not flooded; a change asked for (Read) at once
  let liveAt = 0, liveTimer = 0, liveNext = '';
  function setLive(text, now) {
    liveNext = text;
    const wait = S.playing && !now ? 1000 - (performance.now() - liveAt) : 0;
    if (wait > 0) { if (!liveTimer) liveTimer = setTimeout(() => { liveTimer = 0; setLive(liveNext, true); }, wait); return; }
    clearTimeout(liveTimer); liveTimer = 0;
    liveAt = performance.now();
    if ($('live').textContent === text) $('live').textContent = ''; // the same words asked again are said again
    $('live').textContent = text;
  }
  function chrome() {
    const json = cstr(wasm.ws_state_json());
    if (json === lastJson) return;
    lastJson = json;
    const st = JSON.parse(json || '{}'), was = S, had = document.activeElement;
    S = st;
    if (st.lang !== lang) { lang = st.lang; words(); }
    document.body.classList.toggle('dark', st.theme === 'dark');
    if (ed && st.theme !== was.theme) ed.setDark(st.theme === 'dark');
    if (ed && st.lang !== was.lang) compareMenu();
    // the focus (a tapped lane or cell, the keys' cursor) is said in its tooltip's words, from the
    // C's scene (the session's language): after the step's sentence when the step changed, alone
    // when only the focus moved
    const base = liveText(st), details = st.focus ? st.focus.details : '';
    // an answer on the same step: its feedback alone (the step's sentence was said already)
    // a change of theme or language says so before the sentence; while playing, a sentence when the
    // phase changes (what the student sees change), not for each step of it
    const changed = (was.theme && st.theme !== was.theme ? W('themeSaid', W('theme_' + st.theme) || st.theme) : '') + (was.lang && st.lang !== was.lang ? W('langSaid') : '');
    const quiet = st.playing && was.playing && st.phase === was.phase && st.version === was.version && !!st.view === !!was.view && !changed;
    const answered = st.lesson && was.lesson && st.ask && st.answerState !== 'open' && st.page === was.page && st.step === was.step &&
                     (st.answerState !== was.answerState || st.explain !== was.explain);
    const live = answered ? feedbackText(st) : base !== lastBase ? (details ? base + (lang === 'zh' ? '' : ' ') + details : base) : details && details !== lastDetails ? details : lastLive;
    if (!quiet) {
      lastBase = base; lastDetails = details;
      if (changed) { lastLive = live; setLive(changed + live); } else if (live !== lastLive) { lastLive = live; setLive(live); }
    }
    $('play').textContent = st.playing ? '❚❚' : '▷'; $('play').setAttribute('aria-pressed', String(!!st.playing));
    $('compare').setAttribute('aria-pressed', String(!!st.compare));
    $('help').setAttribute('aria-pressed', String(st.overlay === 'help' || helpOpen));
    $('lessons').setAttribute('aria-pressed', String(st.overlay === 'menu'));
    if ($('version-id').textContent !== (st.version || '—')) { $('version-id').textContent = st.version || '—'; versionName(); }
    $('version').disabled = !!st.lesson;
    // a lesson's own row: its pages, the answer field, Answer and Hint
    $('lessonbar').hidden = !st.lesson; document.body.classList.toggle('lesson', !!st.lesson);
    if (st.lesson) {
      $('page').textContent = (st.page + 1) + ' / ' + st.pages; $('page').title = W('page', st.page + 1, st.pages);
      $('page-prev').disabled = st.page <= 0;
      const asking = !!st.ask && (st.answerState === 'open' || st.answerState === 'wrong');
      $('answer').hidden = !st.ask; $('answer-go').hidden = !st.ask; $('hint').hidden = !st.ask;
      $('answer').disabled = !asking; $('answer-go').disabled = !asking; $('hint').disabled = !asking;
      const place = { lanes: 'placeLanes', banks: 'placeBanks', cells: 'placeCells', number: 'placeNumber', choice: 'placeChoice' }[st.ask];
      if (place) $('answer').placeholder = W(place);
      if (!was.lesson || was.page !== st.page || was.lessonId !== st.lessonId) $('answer').value = '';
      // a choice's options: buttons that read the option's text, in order, and answer with it
      const opts = st.ask === 'choice' ? optionTexts(st) : [], ck = lang + JSON.stringify(opts) + st.prompt, ch = $('choices');
      if (ch.dataset.key !== ck) {
        ch.dataset.key = ck;
        for (const b of [...ch.querySelectorAll('button')]) b.remove();
        $('choices-label').textContent = st.prompt ? W('question', st.prompt.replace(/\s+/g, ' ')) : '';
        opts.forEach((text, i) => {
          // its letter shown (the picture shows the text beside it), the whole option its name
          const b = document.createElement('button'); b.type = 'button';
          b.textContent = String.fromCharCode(97 + i); b.setAttribute('aria-label', text); b.title = text;
          b.addEventListener('click', () => choose(i));
          ch.appendChild(b);
        });
      }
      ch.hidden = !opts.length;
      const ask = st.ask && st.prompt ? W('question', st.prompt.replace(/\s+/g, ' ')) + (opts.length ? ' ' + opts.join(lang === 'zh' ? '；' : '; ') : '') : '';
      if ($('ask-text').textContent !== ask) $('ask-text').textContent = ask;
      $('ask-text').hidden = !ask;
      for (const b of ch.querySelectorAll('button')) b.disabled = !asking;
    } else $('choices').hidden = true;
    // a control that had focus and is gone or disabled now (Answer after a right answer, Hint after
    // the answer is shown): focus goes where the student goes on, never to the whole page
    if (had && had !== document.body && had !== canvas && (had.disabled || had.hidden || !had.isConnected || !had.getClientRects().length) && (document.activeElement === had || document.activeElement === document.body)) {
      const to = st.lesson && $('lessonbar').contains(had) ? lessonFocus(st) : $('bar').contains(had) ? $('step-next') : null;
      if (to) to.focus();
    }
    // the lessons' menu as buttons
    const menu = st.overlay === 'menu' ? st.menu || [] : [];
    $('menu').hidden = !menu.length;
    const items = $('menu-items'), key = JSON.stringify(menu);
    if (items.dataset.key !== key) {
      items.dataset.key = key; items.textContent = '';
      menu.forEach((m, i) => {
        const b = document.createElement('button'); b.type = 'button'; b.textContent = m;
        b.addEventListener('click', () => { call(() => wasm.ws_menu_choose(i)); });
        items.appendChild(b);
      });
      if (menu.length && !was.menu) setTimeout(() => { const f = items.querySelector('button'); if (f) f.focus(); }, 0);
    }
    // the menu closed: focus back on the button that opened it; a lesson opened from it: on the
    // lesson's first control (a lesson opened by its link leaves focus where it is, on the page)
    if (was.overlay === 'menu' && st.overlay !== 'menu' && $('menu').contains(document.activeElement) || (!menu.length && document.activeElement === document.body && was.overlay === 'menu'))
      (st.lesson && !was.lesson ? $('read') : $('lessons')).focus();
    // Help: the key table's lines as the page's own list (the canvas's is a picture)
    for (const b of document.querySelectorAll('#more-items [data-in]')) b.hidden = b.dataset.in !== st.overlay;
    showHelp(st.overlay === 'help' || helpOpen);
    showVersions(versionsOpen);
    address(st);
  }
  const helpItems = { key: '' };
  let helpOpen = false; // the Help button's list (F1 and ? on the picture also draw the key table there)
  const CONTROLS = [['step-prev', 'c_step'], ['play', 'c_play'], ['lessons', 'c_lessons'], ['version', 'c_version'], ['compare', 'c_compare'],
                    ['help', 'c_help'], ['write', 'c_write'], ['more', 'c_more'], ['copy', 'c_copy'], ['page-next', 'c_pages'], ['read', 'c_read'],
                    ['answer', 'c_answer'], ['warpscope', 'c_picture']];
  function showHelp(open) {
    const was = !$('helplist').hidden, inside = $('helplist').contains(document.activeElement);
    $('helplist').hidden = !open;
    if (!open) { if (was && inside) $('help').focus(); return; }
    if (helpItems.key !== lang) {
      helpItems.key = lang;
      const li = (ul, head, text) => { const e = document.createElement('li'); const k = document.createElement('kbd'); k.textContent = head; e.append(k, ' ', text); ul.appendChild(e); };
      const uc = $('help-controls'), uk = $('help-keys');
      uc.textContent = ''; uk.textContent = '';
      const named = { 'step-prev': W('prevStep') + ', ' + W('nextStep'), 'page-next': W('prevPage') + ', ' + W('nextPage'), answer: W('yourAnswer') + ', ' + W('answer') + ', ' + W('hint') };
      for (const [id, w] of CONTROLS) li(uc, named[id] || (id === 'warpscope' ? 'warpscope' : $(id).getAttribute('aria-label') || $(id).textContent), W(w));
      let rows = [];
      try { rows = JSON.parse(cstr(wasm.ws_help_json())); } catch (e) { rows = []; }
      for (const [k, t] of rows) li(uk, k, t);
    }
  }
  function showVersions(open) {
    if (versionsOpen && !open && $('versions').contains(document.activeElement)) setTimeout(() => $('version').focus(), 0);
    versionsOpen = open && !S.lesson;
    $('versions').hidden = !versionsOpen;
    $('version').setAttribute('aria-expanded', String(versionsOpen));
    if (!versionsOpen) return;
    const items = $('versions-items'), key = lang + JSON.stringify(S.versions);
    if (items.dataset.key === key) return;
    items.dataset.key = key; items.textContent = '';
    for (const v of S.versions || []) {
      const b = document.createElement('button'); b.type = 'button'; b.textContent = v.id + ': ' + v.title;
      b.addEventListener('click', () => { versionsOpen = false; showVersions(false); act('version:' + v.id); $('version').focus(); });
      items.appendChild(b);
    }
  }
  // the address keeps what is on screen: reloading it, or sending it, opens the same picture
  // now: at once (the editor, opened, names its exercise before it says it is ready: the pack's rest
  // it waits for may come after the first picture), else within the browser's limit
  function address(st, now) {
    const q = new URLSearchParams();
    q.set('lang', st.lang);
    if (st.theme && st.theme !== 'light') q.set('theme', st.theme);
    if (st.overlay === 'menu') q.set('lesson', '');
    else if (st.lesson) { q.set('lesson', st.lessonId); q.set('page', String(st.page + 1)); }
    else if (!st.version || (st.versions || []).some((v) => v.id === st.version)) {
      if (st.version) q.set('version', st.version);
      if (st.compare) q.set('compare', st.compare);
      if (st.step >= 0) q.set('step', String(st.step));
    } else if (query.get('trace')) q.set('trace', query.get('trace')); // a trace the link named keeps its link
    // (a trace of the learner's own, dropped or run from the editor, is not in the pack: no link opens it)
    if (query.get('embed') === '1') q.set('embed', '1');
    if (!$('editor').hidden) { q.set('editor', '1'); const x = exOf(exercise); if (x && ed) q.set('exercise', x.number); }
    const want = '?' + q.toString().replace(/=(&|$)/g, '$1');
    if (now) {
      clearTimeout(urlTimer); urlTimer = 0; urlKeep = want;
      if (location.search !== want) history.replaceState(null, '', want + location.hash);
      return;
    }
    if (want === urlKeep) return;
    urlKeep = want;
    // browsers limit how often the address may change: while playing, it follows at most 4 times a second
    if (!urlTimer) urlTimer = setTimeout(() => { urlTimer = 0; if (location.search !== urlKeep) history.replaceState(null, '', urlKeep + location.hash); }, 250);
  }

  // ---- input: keys by the key table's names, from keys and from the page's buttons ----
  const NAMED = { ArrowRight: 'Right', ArrowLeft: 'Left', ArrowUp: 'Up', ArrowDown: 'Down', PageUp: 'PageUp', PageDown: 'PageDown',
                  Home: 'Home', End: 'End', Enter: 'Return', Escape: 'Escape', Backspace: 'Backspace', Tab: 'Tab', ' ': 'Space', Delete: 'Delete' };
  function keyName(e) {
    let k = NAMED[e.key] || (/^F([1-9]|1[0-2])$/.test(e.key) ? e.key : e.key.length === 1 ? e.key : null);
    if (!k) return null;
    const letter = /^[a-zA-Z]$/.test(k);
    if (letter) k = k.toLowerCase();
    if (e.ctrlKey || e.metaKey) return 'Ctrl+' + k;
    if (e.shiftKey && (letter || NAMED[e.key] || /^F/.test(k))) return 'Shift+' + k;
    return k;
  }
  // until the rest of the pack has arrived, what would load a capture waits for it
  let rest = null;
  function call(fn) {
    if (rest) { rest.then(() => call(fn)); return 1; }
    const r = fn(); redraw(); return r;
  }
  function key(name) { edSay = ''; return call(() => withString(name, (p) => wasm.ws_key(p))); }
  function act(script) { return call(() => withString(script, (p) => wasm.ws_actions(p))); }
  function pos(e) { const r = canvas.getBoundingClientRect(), s = canvas.width / r.width; return [Math.round((e.clientX - r.left) * s), Math.round((e.clientY - r.top) * s)]; }
  function answer() {
    const t = $('answer').value.trim();
    if (t && S.ask) {
      const ok = call(() => withString(t, (p) => wasm.ws_answer_text(p)));
      if (ok !== 0) { notice(W(S.ask === 'number' || S.ask === 'choice' ? 'notAnswer' : 'notNumbers')); return; }
    }
    $('notice').hidden = true;
    key('Return');
  }
  // single-key shortcuts (WCAG 2.1.4): on unless the setting turned them off (kept in the browser)
  let shortcuts = true;
  try { shortcuts = localStorage.getItem('warpscope-shortcuts') !== 'off'; } catch (e) { shortcuts = true; }
  function shortcutsShown() { const b = $('shortcuts'); b.textContent = W(shortcuts ? 'shortcutsOn' : 'shortcutsOff'); b.setAttribute('aria-pressed', String(shortcuts)); }
  // More: the controls a keyboard reaches by letters, for a finger and for everyone
  let moreOpen = false;
  function showMore(open) {
    if (moreOpen && !open && $('more-menu').contains(document.activeElement)) setTimeout(() => $('more').focus(), 0);
    moreOpen = open;
    $('more-menu').hidden = !open; $('more').setAttribute('aria-expanded', String(open));
    if (open) { showVersions(false); const f = $('more-items').querySelector('button'); if (f) f.focus(); }
  }
  // arrows within a list of buttons (the lessons' menu, the versions, More): Down and Up move, Home
  // and End go to its ends; Enter presses the button that has focus
  function listMove(e) {
    const list = e.target.closest && e.target.closest('#menu-items, #versions-items, #more-items');
    if (!list || !/^(ArrowDown|ArrowUp|Home|End)$/.test(e.key)) return false;
    const bs = [...list.querySelectorAll('button')].filter((b) => !b.disabled && !b.hidden), i = bs.indexOf(e.target);
    const j = e.key === 'Home' ? 0 : e.key === 'End' ? bs.length - 1 : Math.max(0, Math.min(bs.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)));
    if (bs[j]) bs[j].focus();
    e.preventDefault();
    return true;
  }
  function listen() {
    window.addEventListener('keydown', (e) => {
      if (e.altKey) return;
      const t = e.target, field = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable), control = t && (t.tagName === 'BUTTON' || field);
      if (listMove(e)) return;
      if (e.key === 'Escape' && (versionsOpen || moreOpen || helpOpen || !$('notice').hidden)) { showVersions(false); showMore(false); if (helpOpen) { helpOpen = false; lastJson = ''; chrome(); } $('notice').hidden = true; e.preventDefault(); return; }
      if (e.key === 'Escape' && (S.overlay === 'menu' || S.overlay === 'help') && control) { key('Escape'); e.preventDefault(); return; }
      // the editor's area keeps its keys: Enter in its fields and Ctrl+Enter anywhere in it run the kernel
      if (t && t.closest && t.closest('#editor')) {
        if ((e.key === 'Enter' && t.tagName === 'INPUT' && t.id !== 'student') || (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !t.isContentEditable && t.tagName !== 'TEXTAREA')) { run(); e.preventDefault(); }
        else if (e.key === 'Enter' && t.id === 'student') { check(); e.preventDefault(); }
        return;
      }
      if (field) { if (e.key === 'Enter') { answer(); e.preventDefault(); } return; }
      // Enter and Space on a focused button press that button; Tab moves between the controls
      if (control && (e.key === 'Enter' || e.key === ' ' || e.key === 'Tab')) return;
      if (e.key === 'Tab') return;
      const name = keyName(e);
      // a letter, digit or sign acts only on the picture (or with nothing focused), never while a
      // button has focus, and not at all with the setting off: a speech user's words or a stray
      // key must not switch the language or the theme
      const single = name && e.key.length === 1 && e.key !== ' ' && !e.ctrlKey && !e.metaKey;
      // Read (Shift+R), which the page's sentences name, from a button too (not while typing)
      if (name === 'Shift+r' && shortcuts && !field) { readAloud(); e.preventDefault(); return; }
      if (single && (control || !shortcuts)) return;
      // Up and Down move the picture's cursor over its lanes and cells: on the picture (or with
      // nothing focused), not from a button
      if (control && /^(Shift\+)?(Up|Down)$/.test(name || '')) return;
      if (name === 'Shift+r') { readAloud(); e.preventDefault(); return; }
      // F5 is a clicker's "start the show": it must not reload the page under the lecture
      if ((name && key(name)) || e.key === 'F5') e.preventDefault();
    });
    for (const b of document.querySelectorAll('button[data-key]')) b.addEventListener('click', () => key(b.dataset.key));
    // a view's own controls in More (the grid's 2^20, the benchmark's timing and GPU): by touch too
    for (const b of document.querySelectorAll('button[data-act]')) b.addEventListener('click', () => act(b.dataset.act));
    $('lessons').addEventListener('click', () => { showVersions(false); showMore(false); helpOpen = false; if (S.overlay === 'menu') key('Escape'); else call(() => withString('', (p) => wasm.ws_learn(p))); });
    $('version').addEventListener('click', () => { showMore(false); helpOpen = false; showVersions(!versionsOpen); const f = $('versions-items').querySelector('button'); if (versionsOpen && f) f.focus(); });
    $('copy').addEventListener('click', copyLink);
    $('more').addEventListener('click', () => showMore(!moreOpen));
    $('help').addEventListener('click', () => { showMore(false); showVersions(false); if (S.overlay === 'help') key('Escape'); helpOpen = S.overlay === 'help' ? false : !helpOpen; lastJson = ''; chrome(); if (helpOpen) $('helplist').focus(); });
    // tabbing out of an open list closes it (focus stays where Tab took it)
    const lists = [['versions', 'version', () => showVersions(false)], ['more-menu', 'more', () => showMore(false)],
                   ['helplist', 'help', () => { if (helpOpen) { helpOpen = false; lastJson = ''; chrome(); } else if (S.overlay === 'help') key('Escape'); }],
                   ['menu', 'lessons', () => { if (S.overlay === 'menu') key('Escape'); }]];
    for (const [id, opener, close] of lists)
      $(id).addEventListener('focusout', (e) => { const to = e.relatedTarget; if (!to || $(id).contains(to) || to === $(opener) || $(id).hidden) return; close(); });
    $('read').addEventListener('click', readAloud);
    $('read-more').addEventListener('click', () => { showMore(false); readAloud(); });
    $('shortcuts').addEventListener('click', () => { shortcuts = !shortcuts; try { localStorage.setItem('warpscope-shortcuts', shortcuts ? 'on' : 'off'); } catch (e) { /* kept for this visit */ } shortcutsShown(); });
    // a picked entry of More closes it, but for those pressed again and again (phase, speed)
    for (const b of document.querySelectorAll('#more-items button[data-key]')) if (!/^(PageUp|PageDown|-|=)$/.test(b.dataset.key)) b.addEventListener('click', () => showMore(false));
    // open a trace or results from a file picker (a phone has no drag and drop)
    $('open-trace').addEventListener('click', () => $('trace-file').click());
    $('trace-file').addEventListener('change', async () => {
      const f = $('trace-file').files[0]; if (!f) return;
      showMore(false);
      openBytes(f.name, new Uint8Array(await f.arrayBuffer()));
      $('trace-file').value = '';
    });
    editorListen();
    $('notice-close').addEventListener('click', () => { $('notice').hidden = true; canvas.focus(); });
    $('answer').addEventListener('input', () => { const t = $('answer').value.trim(); if (t && S.ask && S.ask !== 'number' && S.ask !== 'choice') call(() => withString(t, (p) => wasm.ws_answer_text(p))); });
    canvas.addEventListener('mousemove', (e) => { const [x, y] = pos(e); wasm.ws_mouse(0, x, y, e.buttons); redraw(); });
    canvas.addEventListener('mousedown', (e) => { if (e.button !== 0) return; const [x, y] = pos(e); wasm.ws_mouse(1, x, y, 1); redraw(); });
    window.addEventListener('mouseup', () => { wasm.ws_mouse(2, 0, 0, 0); redraw(); });
    canvas.addEventListener('mouseleave', () => { wasm.ws_mouse(0, -1, -1, 0); redraw(); });
    // touch: a tap presses where it lands, a swipe steps (left: forward, right: back)
    let start = null;
    canvas.addEventListener('touchstart', (e) => { const t = e.changedTouches[0]; start = [t.clientX, t.clientY]; e.preventDefault(); }, { passive: false });
    canvas.addEventListener('touchend', (e) => {
      const t = e.changedTouches[0]; if (!start) return;
      const dx = t.clientX - start[0], dy = t.clientY - start[1];
      const lesson = wasm.ws_answer_state() >= 0; // in a lesson a swipe turns its pages
      if (Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(dy)) key(dx < 0 ? (lesson ? 'PageDown' : 'Right') : (lesson ? 'PageUp' : 'Left'));
      else { // a tap presses where it lands: a lane's or a cell's details stay pinned (the C's ACT_PIN) until the next tap elsewhere, a step or Esc; the finger leaves no hover behind
        const [x, y] = pos(t);
        wasm.ws_mouse(0, x, y, 0); wasm.ws_mouse(1, x, y, 1); wasm.ws_mouse(2, x, y, 0); wasm.ws_mouse(0, -1, -1, 0); redraw();
      }
      start = null; e.preventDefault();
    }, { passive: false });
    window.addEventListener('resize', redraw);
    // a dropped trace or results file opens
    window.addEventListener('dragover', (e) => e.preventDefault());
    window.addEventListener('drop', async (e) => {
      e.preventDefault();
      const f = e.dataTransfer.files[0]; if (!f) return;
      openBytes(f.name, new Uint8Array(await f.arrayBuffer()));
    });
  }
  async function copyLink() {
    const link = location.href.split('?')[0] + urlKeep;
    try { await navigator.clipboard.writeText(link); notice(W('copied'), true); } catch (e) {
      const t = document.createElement('textarea'); t.value = link; document.body.appendChild(t); t.select();
      let ok = false; try { ok = document.execCommand('copy'); } catch (e2) { ok = false; }
      t.remove(); notice(W(ok ? 'copied' : 'notCopied'), ok);
    }
  }
  function openBytes(name, bytes) {
    const path = 'dropped/' + name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
    putFile(path, bytes);
    const rc = withString(path, (p) => wasm.ws_open(p));
    if (rc === 0) stale(false);
    redraw();
    return rc;
  }

  // ---- start: the pack and the module arrive gzipped, the first picture's files first ----
  let received = 0, expected = 0;
  function loading() {
    $('loading-text').textContent = expected ? W('loadingOf', Math.round(received / 1e3), Math.round(expected / 1e3)) : W('loading');
    $('loading-bar').value = expected ? Math.min(1, received / expected) : 0;
  }
  // the bytes of NAME.gz, unzipped here (a static server sends them as they are); a server that
  // sends them with Content-Encoding: gzip has unzipped them already; without NAME.gz, NAME itself
  async function fetchData(name) {
    let r = await fetch(name + '.gz'), gz = true;
    if (!r.ok) { r = await fetch(name); gz = false; }
    if (!r.ok) throw new Error(name + ': ' + r.status + ' ' + r.statusText);
    expected += +r.headers.get('Content-Length') || 0;
    loading();
    let body = r.body.pipeThrough(new TransformStream({ transform(c, ctl) { received += c.length; loading(); ctl.enqueue(c); } }));
    if (gz && !/gzip/.test(r.headers.get('Content-Encoding') || '')) body = body.pipeThrough(new DecompressionStream('gzip'));
    return body;
  }
  // the pack's first part, then, once `more` resolves, its rest
  async function readPack(onFirst, more) {
    const un = new Unpacker(onFirst);
    const feed = async (name) => {
      const reader = (await fetchData(name)).getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          un.feed(value);
        }
      } catch (e) {
        if (e instanceof PackError) throw e;
        throw new PackError(e.message || String(e)); // a gzip stream cut short
      }
    };
    await feed('warpscope.pack');
    if (!un.goesOn()) return;
    await more;
    await feed('warpscope.rest.pack');
    un.end();
  }
  async function start() {
    const t0 = performance.now();
    words();
    loading();
    try {
      if (typeof WebAssembly !== 'object' || typeof DecompressionStream !== 'function') throw Object.assign(new Error(W('noWasm', typeof WebAssembly !== 'object' ? 'WebAssembly' : 'DecompressionStream')), { noWasm: true });
      let first, more, packError = null;
      const firstPart = new Promise((r) => { first = r; });
      // the pack's rest is asked for after the first picture, so that it does not share the link
      // with what that picture waits for (at once where the address opens something else)
      const afterFirst = new Promise((r) => { more = r; });
      const whole = readPack(() => first(), afterFirst);
      whole.then(() => first(), (e) => { packError = e; first(); });
      const module = fetchData('warpscope.wasm').then((b) => WebAssembly.compileStreaming(new Response(b, { headers: { 'Content-Type': 'application/wasm' } })));
      // the default opening (v0) starts with the first part; a link to any other capture waits for all
      const plain = !query.has('lesson') && !query.has('actions') && !query.has('compare') && (query.get('version') || 'v0') === 'v0';
      if (!plain) more();
      rest = whole.then(() => { rest = null; });
      rest.catch(() => {});
      await Promise.all([plain ? firstPart : whole, module]);
      if (packError) throw packError;
      restore();
      const inst = await WebAssembly.instantiate(await module, { wasi_snapshot_preview1: wasi, warpscope: metrics });
      wasm = inst.exports; mem = wasm.memory;
      wasm._initialize();
      if (wasm.ws_start() !== 0) throw new Error(cstr(wasm.ws_error()));
      listen();
      // a phone's texts name its buttons, not keys: known from a coarse pointer, or the first touch
      if (window.matchMedia && window.matchMedia('(pointer: coarse)').matches) wasm.ws_touch(1);
      window.addEventListener('touchstart', () => { wasm.ws_touch(1); redraw(); }, { once: true, passive: true });
      opening();
      frame();
      more();
      document.body.dataset.loadMs = String(Math.round(performance.now() - t0));
      whole.then(() => { document.body.dataset.loaded = String(Math.round(performance.now())); },
                 (e) => fail(e instanceof PackError ? W('badPack', e.message) : W('failed', e.message || String(e))));
    } catch (e) {
      fail(e instanceof PackError ? W('badPack', e.message) : e.noWasm ? e.message : W('failed', e.message || String(e)));
    }
  }
  // the address's options: ?lang=zh, ?theme=dark, ?version=v2&compare=v3&step=12, ?lesson=03&page=4
  // (?lesson= alone: the menu), ?actions=version:v2,step:5 (step:N is the absolute step), ?embed=1
  function opening() {
    if (query.get('embed') === '1') document.body.classList.add('embed');
    if (lang === 'zh') withString('lang:zh', (p) => wasm.ws_actions(p));
    if (query.get('theme') === 'dark') withString('theme', (p) => wasm.ws_actions(p));
    const script = [], bad = [];
    if (query.get('version')) script.push('version:' + query.get('version'));
    if (query.get('compare')) script.push('compare:' + query.get('compare'));
    if (/^\d+$/.test(query.get('step') || '')) script.push('seek-step:' + query.get('step'));
    for (const a of (query.get('actions') || '').split(',')) if (a.trim()) script.push(a.trim().replace(/^step:(\d+)$/, 'seek-step:$1'));
    for (const a of script) if (withString(a, (p) => wasm.ws_actions(p))) bad.push(a);
    if (query.has('lesson')) {
      withString(query.get('lesson'), (p) => wasm.ws_learn(p)); // one it lacks: the menu, and the status line says why
      const page = +query.get('page');
      if (page > 0) { const st = state(); if (st.lesson && page - 1 !== st.page) withString('lesson:' + (page - 1 - st.page), (p) => wasm.ws_actions(p)); }
    }
    if (bad.length) notice(W('unknownAction', bad.join(', ')));
    if (query.get('trace')) openLink(query.get('trace'));
  }
  // ?trace=PATH: a trace of this site (the class server's teacher opens a student's last try so)
  async function openLink(link) {
    try {
      const u = new URL(link, location.href);
      if (u.origin !== location.origin) throw new Error(link);
      const r = await fetch(u.href, { cache: 'no-store' });
      if (!r.ok) throw new Error(r.status + ' ' + r.statusText);
      const bytes = new Uint8Array(await r.arrayBuffer());
      if (rest) await rest.catch(() => {});
      openBytes('trace.json', bytes);
    } catch (e) { notice(W('traceLink', e.message || String(e))); }
  }

  // ---- the kernel editor: the learner's file traced by `warpscope serve` (POST api/trace) and shown
  // as a dropped trace is, in every view; in an exercise judged (POST api/check) and its checklist
  // shown. The editor (CodeMirror, editor.js beside the page, built from web/editor/) is loaded
  // only when it is shown; as a plain static site (api/health does not answer) the area says that
  // writing kernels needs the server. The text, entry, n and block are kept per exercise in the
  // browser's storage, the student's name once.
  const ED = 'warpscope-editor:'; // not under STORE: these are not files of the page
  const FREE = { entry: 'reduce<<<(n + 255) / 256, 256>>>(in, out, n), reduce<<<1, 256>>>(out, out, (n + 255) / 256)', n: 4096, block: 256 };
  const FREE_HEAD = {
    en: '// A reduction of your own: each block sums 256 elements of in into out[blockIdx.x], and the\n// entry\'s second launch sums the blocks\' partial sums. Change it, then Run (Ctrl+Enter).\n',
    zh: '// 你自己的归约：每个线程块把 in 的 256 个元素加到 out[blockIdx.x]，\n// 入口的第二次启动再把各块的部分和相加。改动它，然后运行（Ctrl+Enter）。\n',
  };
  const FREE_BODY = '#define BLOCK 256\n\n__global__ void reduce(const float *in, float *out, unsigned int n)\n{\n' +
    '    __shared__ float s[BLOCK];\n    unsigned int t = threadIdx.x;\n    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;\n' +
    '    s[t] = i < n ? in[i] : 0.0f;\n    __syncthreads();\n    for (unsigned int half = blockDim.x / 2; half > 0; half /= 2) {\n' +
    '        if (t < half) s[t] += s[t + half];\n        __syncthreads();\n    }\n    if (t == 0) out[blockIdx.x] = s[0];\n}\n';
  let ed = null, edBoot = null, server = null, edSay = '', exercise = '', edBusy = false;
  function stored(k, v) {
    try {
      if (v === undefined) return localStorage.getItem(ED + k);
      if (v === null) localStorage.removeItem(ED + k); else localStorage.setItem(ED + k, v);
    } catch (e) { /* no storage: kept for this visit only */ }
    return null;
  }
  // the exercises the pack carries (exercises/NN-name.json and their starting files)
  let exList = null;
  function exercises() {
    if (exList) return exList;
    const list = [];
    for (const k of [...files.keys()].sort()) {
      const m = /^exercises\/((\d+)-[^/]+)\.json$/.exec(k);
      if (!m) continue;
      try {
        const l = JSON.parse(DEC.decode(files.get(k))), x = l.exercise;
        const start = files.get('exercises/' + x.start);
        list.push({ id: m[1], number: m[2], title: l.title, entry: x.entry, n: (x.capture && x.capture.n) || FREE.n, block: 256,
                    schedule: x.capture && x.capture.schedule, start: start ? DEC.decode(start) : '', goals: x.goals || [],
                    task: x.task || null, hints: x.hints || [] });
      } catch (e) { /* a file the page cannot read is left out of the list */ }
    }
    if (!rest) exList = list; // complete once the pack has arrived
    return list;
  }
  const exOf = (id) => exercises().find((x) => x.id === id) || null;
  function health() {
    if (!server) server = fetch('api/health', { cache: 'no-store' }).then((r) => (r.ok ? r.json() : null)).then((j) => !!(j && j.ok === true), () => false);
    return server;
  }
  // NAME.gz unzipped here, else NAME; null when neither is there
  async function fetchText(name) {
    try {
      const r = await fetch(name + '.gz');
      if (r.ok) {
        const body = /gzip/.test(r.headers.get('Content-Encoding') || '') ? r.body : r.body.pipeThrough(new DecompressionStream('gzip'));
        return await new Response(body).text();
      }
      const p = await fetch(name);
      return p.ok ? await p.text() : null;
    } catch (e) { return null; }
  }
  // the stand-in without the bundle: a plain text field that does what the editor is asked
  function plainEditor(parent, o) {
    const t = document.createElement('textarea');
    t.value = o.doc; t.spellcheck = false; t.setAttribute('aria-label', o.label);
    t.addEventListener('input', () => o.onChange(t.value));
    t.addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); o.onRun(); } });
    parent.appendChild(t);
    return {
      text: () => t.value, setText: (v) => { t.value = v; }, setLabel: (v) => t.setAttribute('aria-label', v), setDark() {}, clearMarks() {}, focus: () => t.focus(),
      mark(line) { const lines = t.value.split('\n'); let at = 0; for (let i = 0; i < Math.min(line - 1, lines.length - 1); i++) at += lines[i].length + 1; t.focus(); t.setSelectionRange(at, at + (lines[line - 1] || '').length); },
    };
  }
  function edNote(text) {
    const p = $('editor-note');
    p.textContent = '';
    text.split('`').forEach((part, i) => { const n = i % 2 ? document.createElement('code') : document.createTextNode(part); if (i % 2) n.textContent = part; p.appendChild(n); });
    p.hidden = false;
  }
  async function showEditor(open, remember) {
    $('editor').hidden = !open;
    $('write').setAttribute('aria-pressed', String(open));
    if (remember) stored('open', open ? '1' : '0');
    address(S);
    redraw();
    if (!open) return;
    if (!(await health())) {
      $('editor').classList.add('note');
      for (const id of ['editor-fields', 'code', 'editor-actions', 'checklist']) $(id).hidden = true;
      edNote(W('needServe'));
      return;
    }
    await bootEditor();
  }
  function bootEditor() {
    if (edBoot) return edBoot;
    edBoot = (async () => {
      if (rest) await rest.catch(() => {}); // the exercises come at the pack's end
      exercise = stored('exercise') || '';
      if (query.has('exercise')) exercise = (exercises().find((x) => x.number === query.get('exercise') || x.id === query.get('exercise')) || { id: '' }).id;
      const kept = work(exercise);
      const code = await fetchText('editor.js');
      if (code && !window.wsEditor) { const sc = document.createElement('script'); sc.textContent = code; document.head.appendChild(sc); }
      const o = { doc: kept.source, label: W('kernelSource'), dark: S.theme === 'dark', onRun: run, onChange: keep };
      $('code').textContent = '';
      ed = window.wsEditor ? window.wsEditor.create($('code'), o) : plainEditor($('code'), o);
      if (!window.wsEditor) edNote(W('noEditor'));
      fields(kept);
      exerciseMenu(); compareMenu();
      $('student').value = stored('student') || '';
      shown(); address(S, true);
      document.body.dataset.editor = window.wsEditor ? 'codemirror' : 'plain';
    })();
    return edBoot;
  }
  // what the learner has for an exercise ('' : a kernel of their own): kept, or its starting file
  function work(id) {
    let k = null;
    try { k = JSON.parse(stored('work:' + (id || 'free')) || 'null'); } catch (e) { k = null; }
    const x = exOf(id), d = x ? { source: x.start, entry: x.entry, n: x.n, block: x.block } : { source: FREE_HEAD[lang] + FREE_BODY, ...FREE };
    return k && typeof k.source === 'string' ? { ...d, ...k } : d;
  }
  function keep() {
    if (!ed) return;
    stored('work:' + (exercise || 'free'), JSON.stringify({ source: ed.text(), entry: $('entry').value, n: $('n').value, block: $('block').value }));
  }
  function fields(k) { $('entry').value = k.entry; $('n').value = String(k.n); $('block').value = String(k.block); }
  function shown() {
    const x = exOf(exercise);
    $('check').hidden = !x; $('student-row').hidden = false; // a Run is a student's too (the class server's limits are per student)
    if (!x) $('checklist').hidden = true;
    taskPanel();
  }
  // the exercise's task, its goals and its hints (each folded) beside the editor, in the page's language
  function taskPanel() {
    const x = exOf(exercise), say = (t) => (t && (t[lang] || t.en)) || '';
    $('task').hidden = !x;
    if (!x) return;
    $('task-title').textContent = W('task') + ': ' + say(x.title);
    $('task-text').textContent = say(x.task);
    const goals = $('task-goals'), hints = $('task-hints');
    goals.textContent = ''; hints.textContent = '';
    for (const g of x.goals) { const li = document.createElement('li'); li.textContent = say(g.say); goals.appendChild(li); }
    x.hints.forEach((h, i) => {
      const d = document.createElement('details'), s = document.createElement('summary'), p = document.createElement('p');
      s.textContent = W('hintN', i + 1); p.textContent = say(h); d.append(s, p); hints.appendChild(d);
    });
  }
  // a picture no longer of the file in the editor (it did not build): dimmed, and said so
  function stale(on) {
    stage.classList.toggle('stale', on);
    if (on) stage.dataset.stale = W('stale'); else delete stage.dataset.stale;
  }
  function exerciseMenu() {
    const m = $('exercise'), list = exercises();
    m.textContent = '';
    const add = (v, t) => { const o = document.createElement('option'); o.value = v; o.textContent = t; m.appendChild(o); };
    add('', W('freeKernel'));
    for (const x of list) add(x.id, x.number + ': ' + (x.title[lang] || x.title.en));
    m.value = exOf(exercise) ? exercise : '';
  }
  function compareMenu() {
    const m = $('compare-with'), was = m.value;
    m.textContent = '';
    const add = (v, t) => { const o = document.createElement('option'); o.value = v; o.textContent = t; m.appendChild(o); };
    add('', W('noCompare'));
    for (const v of S.versions || []) add(v.id, W('compareWith') + ': ' + v.id + ' ' + v.title);
    m.value = was;
  }
  function chooseExercise(id) {
    keep();
    exercise = exOf(id) ? id : '';
    stored('exercise', exercise || null);
    const k = work(exercise);
    ed.setText(k.source); fields(k); ed.clearMarks();
    gpuStop(); $('checklist').hidden = true; say('');
    shown(); address(S);
  }
  function edWords() {
    $('editor-title').textContent = W('editorTitle');
    label('write', W('write'));
    $('run').textContent = W('run'); $('run').title = W('run') + ' (Ctrl+Enter)';
    $('check').textContent = W('check');
    $('entry-label').textContent = W('entry'); $('block-label').textContent = W('block'); $('student-label').textContent = W('yourName');
    $('checklist').setAttribute('aria-label', W('checklistName'));
    $('exercise').setAttribute('aria-label', W('exercise')); $('compare-with').setAttribute('aria-label', W('compareWith'));
    if (!$('editor-note').hidden && !ed) edNote(W('needServe'));
    if (ed) { ed.setLabel(W('kernelSource')); exerciseMenu(); compareMenu(); taskPanel(); if (!window.wsEditor) edNote(W('noEditor')); }
    if (gpuWatch) gpuItem();
    if (stage.dataset.stale) stage.dataset.stale = W('stale');
  }
  // the editor's status line, said in the live region too
  function say(msg, bad, live) {
    const st = $('editor-status');
    st.textContent = msg; st.classList.toggle('bad', !!bad);
    edSay = live || msg;
    lastLive = liveText(S); $('live').textContent = lastLive;
  }
  const num = (x) => (typeof x !== 'number' ? String(x) : Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(7))));
  function request() {
    const n = Number($('n').value.trim()), block = Number($('block').value.trim()), entry = $('entry').value.trim();
    if (!Number.isInteger(n) || n < 1 || n > 67108864) { say(W('badN'), true); $('n').focus(); return null; }
    if (!Number.isInteger(block) || block < 1 || block > 1024) { say(W('badBlock'), true); $('block').focus(); return null; }
    if (!entry) { say(W('noEntry'), true); $('entry').focus(); return null; }
    const x = exOf(exercise), body = { source: ed.text(), entry, defines: [], n, block };
    if (x && x.schedule) body.schedule = x.schedule;
    return body;
  }
  async function post(path, body, again, waited) {
    const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    // a busy server says when to ask again (Retry-After): a Run or Check is sent again by itself then,
    // for up to a minute in all, the status line saying so; after that the learner is told to try
    const after = Number(r.headers.get('Retry-After')) || 1, spent = waited || 0;
    if (r.status === 429 && path !== 'api/join' && spent + after <= 60) {
      say(W('busyWait', after));
      await new Promise((ok) => setTimeout(ok, after * 1000));
      return post(path, body, again, spent + after);
    }
    // a proxy whose server went away (502, 504: nginx in front of several) sends nothing of it back:
    // the Run or Check is sent again by itself, to a server that is there, for up to a minute too
    if ((r.status === 502 || r.status === 504) && path !== 'api/join' && spent + 2 <= 60) {
      say(W('busyWait', 2));
      await new Promise((ok) => setTimeout(ok, 2000));
      return post(path, body, again, spent + 2);
    }
    const bytes = new Uint8Array(await r.arrayBuffer());
    let json = null;
    try { json = JSON.parse(DEC.decode(bytes)); } catch (e) { json = null; }
    // the class server knows a student by the session it gives at api/join (a cookie this page cannot
    // read): a Run or Check answered 401 joins with the name typed (and the class's code, ?join=CODE
    // of this page's address), then is sent once more
    if (r.status === 401 && !again && $('student').value.trim()) {
      const j = await join($('student').value.trim());
      return j.r.status === 200 ? post(path, body, true) : j;
    }
    return { r, bytes, json };
  }
  // a code kept from an earlier class that no longer opens one (404) is forgotten, and the join tried
  // once more without it: the class the teacher has open now is reached
  async function join(name) {
    const kept = !query.get('join') && stored('code');
    let j = await post('api/join', { name, code: query.get('join') || kept || '' }, true);
    if (j.r.status === 404 && kept) { stored('code', null); j = await post('api/join', { name, code: '' }, true); }
    if (j.r.status === 200) { stored('joined', name); if (query.get('join')) stored('code', query.get('join')); }
    return j;
  }
  // what an answer other than 200 says: the error at its line, or the server's trouble
  function trouble(a) {
    const e = a.json && a.json.error;
    if (e && typeof e.message === 'string') e.message = e.message.replace(/^(fatal )?error:\s*/, ''); // the line says it is an error
    if (a.r.status === 422 && e && e.field === 'entry') { // the entry is what is wrong: marked in its field
      const f = $('entry'), c = Math.max(0, (e.column || 1) - 1);
      f.focus(); f.setSelectionRange(c, Math.min(f.value.length, c + 1));
      say(e.column > 0 ? W('entryError', e.column, e.message || '') : W('entryErrorAll', e.message || ''), true);
    } else if (a.r.status === 422 && e && e.line > 0) {
      stale(true);
      ed.mark(e.line, e.column || 0, e.message || '');
      say(W('compileError', e.line, e.column || 0, e.message || ''), true);
    } else if (a.r.status === 401 && !$('student').value.trim()) { // the class server knows a student by name: asked for it
      say(W('nameFirst'), true); $('student').focus();
    } else if (a.r.status === 429) say(W('busy', a.r.headers.get('Retry-After') || '1'), true);
    else if (a.r.status === 413) say(W('tooBig'), true);
    else say(W('serverSaid', a.r.status, (e && (e.message || e)) || a.r.statusText), true);
  }
  // while a request is out, Run and Check are disabled; the control that had focus (Run, Check, the
  // editor after Ctrl+Enter) has it back when it is done
  let busyFocus = null;
  function busy(on) {
    if (on && !edBusy) busyFocus = document.activeElement;
    edBusy = on; $('run').disabled = on; $('check').disabled = on; $('editor').setAttribute('aria-busy', String(on));
    if (!on && busyFocus && busyFocus.isConnected && (document.activeElement === document.body || !document.activeElement)) busyFocus.focus();
  }
  // quiet: the picture of a file just checked, under the exercise's own capture (the checklist keeps
  // the status line; what goes wrong here the checklist has said already)
  async function run(quiet) {
    quiet = quiet === true;
    if (!ed || edBusy) return;
    const body = request();
    if (!body) return;
    keep(); if (!quiet) { ed.clearMarks(); say(W('running')); }
    busy(true);
    try {
      const name = $('student').value.trim(); // a name typed and not yet joined with: joined first (a Run is the session's)
      if (name && stored('joined') !== name) { const j = await join(name); if (j.r.status !== 200) { if (!quiet) trouble(j); return; } }
      const a = await post('api/trace', body);
      if (a.r.status !== 200 || !a.json) { if (!quiet) trouble(a); return; }
      const t = a.json;
      // the source panel shows the text that was run, under the name its trace gives it
      const src = body.source;
      withString((t.provenance && t.provenance.source) || '', (pn) => withString(src, (ps) => wasm.ws_source(pn, ps)));
      const rc = openBytes((exercise || 'kernel') + '.json', a.bytes);
      if (rc !== 0) { if (!quiet) say(W('notOpened', cstr(wasm.ws_status())), true); return; }
      const cmp = $('compare-with').value;
      if (cmp) act('compare:' + cmp);
      if (quiet) return;
      const p = t.provenance || {}, d = t.result - t.reference;
      const steps = state().steps;
      say(W('ran', p.backend === 'cpu' ? W('emulator') : p.device || p.backend, p.n, num(t.result), num(t.reference),
            Math.abs(d) <= (t.tolerance || 0) ? W('within') : W('off', num(d)), Math.max(0, steps - 1)) +
          ((t.hazards || []).length ? W('races', t.hazards.length) : ''));
    } catch (e) { if (!quiet) say(W('noServerNow', e.message || String(e)), true); } finally { busy(false); }
  }
  async function check() {
    const x = exOf(exercise);
    if (!ed || edBusy || !x) return;
    const student = $('student').value.trim();
    if (!student) { say(W('nameFirst'), true); $('student').focus(); return; }
    stored('student', student);
    keep(); ed.clearMarks(); gpuStop(); busy(true); say(W('checking'));
    let ran = false;
    try {
      if (stored('joined') !== student) { const j = await join(student); if (j.r.status !== 200) { trouble(j); return; } } // a name changed: joined anew
      const a = await post('api/check', { exercise: x.number, source: ed.text() });
      // an answer without a judgement (a compile error, the server busy) leaves no old checklist beside it
      if (a.r.status !== 200 || !a.json) { $('checklist').hidden = true; trouble(a); return; }
      const f = a.json.files ? a.json.files[0] : a.json;
      checklist(x, f);
      gpuStart(a.json.gpu || (f && f.gpu), x, a.json.exercise);
      if (gpuWatch) gpuWatch.runs = (f && f.runs) || 0;
      ran = !!(f && f.ran);
      if (!ran) stale(true);
    } catch (e) { say(W('noServerNow', e.message || String(e)), true); } finally { busy(false); }
    if (ran) await run(true); // and its picture: a missed goal is seen where it happens
  }
  // the checklist: each goal met or missed, with what was measured and the first run that broke it
  function checklist(x, f) {
    const ul = $('checklist'), goals = (f && f.goals) || [], missed = [];
    ul.textContent = ''; ul.hidden = false;
    const li = (cls, text) => { const e = document.createElement('li'); e.className = cls; e.textContent = text; ul.appendChild(e); return e; };
    const head = W('checked', f.met || 0, goals.length, f.runs || 0); // on the status line above the list
    if (f.error) {
      li('head', W('didNotRun', f.error));
      const m = /:(\d+):(\d+): (?:error: )?(.*)$/.exec(f.error);
      if (m && !f.ran) ed.mark(+m[1], +m[2], m[3]);
    }
    goals.forEach((g, i) => {
      if (g.card) { // the card's goal (exercise 10): its own words; judged when the card's timing comes (gpuDone)
        const line = byLang(g.line) || byLang(g.say) || g.goal;
        li(g.met ? 'met' : g.value === null || g.value === undefined ? 'waiting' : 'missed', line).id = 'card-goal';
        if (!g.met) missed.push(line);
        return;
      }
      const want = x.goals[i] || {}, text = (want.say && (want.say[lang] || want.say.en)) || g.goal;
      const bound = ['at_most', 'at_least', 'equals'].find((b) => b in g);
      const count = want.value && !/[<>=!]|has\(/.test(want.value);
      let line = text;
      if (g.value === null || g.value === undefined) line += lang === 'zh' ? '（' + W('notRun') + '）' : ' (' + W('notRun') + ')';
      else if (count && bound) line += lang === 'zh' ? '：' + W('measured', num(g.value), W('bound_' + bound, num(g[bound]))) : ': ' + W('measured', num(g.value), W('bound_' + bound, num(g[bound])));
      if (!g.met && g.broken_at) line += lang === 'zh' ? '，' + W('brokenAt', g.broken_at) : ', ' + W('brokenAt', g.broken_at);
      li(g.met ? 'met' : 'missed', line);
      if (!g.met) missed.push(line);
    });
    // the status line says how many; the live region reads the checklist out too
    const sp = lang === 'zh' ? '' : ' ', short = head + (f.error ? sp + W('didNotRun', f.error) : f.solved ? sp + W('solved') : '');
    say(short, !f.solved, short + (missed.length ? sp + W('missed', missed.join(lang === 'zh' ? '；' : '; ')) : ''));
  }
  // ---- the lab's GPU timing (issue 53's contract): a Check that met every correctness goal is
  // queued for the card (its answer's "gpu": {"id", "state": "queued"}); the page asks api/gpu?id=N
  // every second until the try is timed, wrong on the card or failed, a new Check or another exercise
  // is chosen, or two minutes have passed, and shows it as the checklist's first item: the queue while
  // it waits, then the server's line in the page's language. The outcome is said once in the live
  // region (not each poll) and never takes the focus. Beside it, the student's timed tries of this
  // exercise (api/gpu/tries), oldest to newest, in a small chart whose name lists them.
  const GPU_POLL_MS = 1000, GPU_WAIT_MS = 120000;
  const GPU_DONE = { timed: 1, wrong: 1, failed: 1, late: 1, unread: 1 };
  let gpuWatch = null;
  function gpuStop() {
    if (gpuWatch) clearTimeout(gpuWatch.timer);
    gpuWatch = null;
    const li = $('gpu-item'); if (li) li.remove();
  }
  // g: the Check's "gpu"; exercise: the exercise as the server names it (its tries are asked by it)
  function gpuStart(g, x, exercise) {
    gpuStop();
    if (!g || typeof g !== 'object') return; // a server without a GPU says nothing of it
    gpuWatch = { id: g.id, exercise: exercise || x.number, json: g, tries: null, started: Date.now(), timer: 0 };
    gpuItem();
    if (g.state === 'queued' && g.id !== undefined && g.id !== null) { gpuTries(gpuWatch); gpuPoll(gpuWatch); }
  }
  async function gpuPoll(w) {
    if (w !== gpuWatch) return;
    if (Date.now() - w.started > GPU_WAIT_MS) { w.json = { state: 'late' }; gpuDone(w); return; }
    let r = null, j = null;
    try { r = await fetch('api/gpu?id=' + encodeURIComponent(w.id), { cache: 'no-store' }); j = await r.json().catch(() => null); } catch (e) { r = null; }
    if (w !== gpuWatch) return; // a new Check, or another exercise, while this was asked
    // a server busy or a proxy between servers (429, 502, 503, 504) or none at all: asked again;
    // another answer that is not the try (its session gone, an id it does not know) ends the wait
    if (r && r.ok && j && typeof j.state === 'string') w.json = j;
    else if (r && ![429, 502, 503, 504].includes(r.status)) w.json = { state: 'unread', error: (j && j.error && (j.error.message || j.error)) || r.status + ' ' + r.statusText };
    if (GPU_DONE[w.json.state]) { gpuDone(w); return; }
    gpuItem();
    w.timer = setTimeout(() => gpuPoll(w), GPU_POLL_MS);
  }
  function gpuDone(w) {
    if (w.json.exercise) w.exercise = w.json.exercise;
    gpuItem();
    // an exercise with a card goal: the card's verdict replaces "not judged here", and the count
    const cg = w.json.card_goal, item = $('card-goal');
    if (cg && item) {
      item.textContent = byLang(cg);
      item.className = cg.met ? 'met' : 'missed';
      const done = W('checked', cg.met_goals, cg.goals, w.runs || 0);
      say(done, !cg.met, done + (cg.met ? (lang === 'zh' ? '' : ' ') + W('solved') : ''));
    }
    // said once, after the picture of the Check has been said (its Run, if still out, would say its
    // step over this), and then kept as what was said last, so a redraw does not say it again
    const text = W('gpuAnnounce', gpuText(w.json)) + (cg && item ? (lang === 'zh' ? '' : ' ') + byLang(cg) : '');
    const tell = () => {
      if (w !== gpuWatch) return;
      if (edBusy) { setTimeout(tell, 250); return; }
      requestAnimationFrame(() => requestAnimationFrame(() => { if (w === gpuWatch) { setLive(text, true); lastLive = text; } }));
    };
    tell();
    gpuTries(w);
  }
  async function gpuTries(w) {
    try {
      const r = await fetch('api/gpu/tries?exercise=' + encodeURIComponent(w.exercise), { cache: 'no-store' });
      const j = r.ok ? await r.json() : null;
      if (w !== gpuWatch || !j || !Array.isArray(j.tries)) return;
      w.tries = j.tries; gpuItem();
    } catch (e) { /* no chart: the line says what matters */ }
  }
  const ordinal = (n) => n + (n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] || 'th');
  const byLang = (t) => (t && typeof t === 'object' ? t[lang] || t.en || '' : t ? String(t) : '');
  function gpuText(j) {
    switch (j.state) {
      case 'queued': return j.position > 1 ? W('gpuQueued', lang === 'zh' ? j.position : ordinal(j.position)) : j.position === 1 ? W('gpuNext') : W('gpuWaiting');
      case 'running': return W('gpuRunning');
      case 'timed': return byLang(j.line) || W('gpuWaiting');
      case 'wrong': return W('gpuWrong', byLang(j.error));
      case 'failed': return W('gpuFailed', byLang(j.error));
      case 'late': return W('gpuLate', GPU_WAIT_MS / 60000);
      case 'unread': return W('gpuUnread', byLang(j.error));
      case 'not-timed': return byLang(j.why);
      default: return '';
    }
  }
  // the item: first in the checklist; wrong on the card is a missed goal, not-timed a quiet line
  function gpuItem() {
    const w = gpuWatch, ul = $('checklist');
    if (!w) return;
    const text = gpuText(w.json);
    let li = $('gpu-item');
    if (!text) { if (li) li.remove(); return; }
    if (!li) {
      li = document.createElement('li'); li.id = 'gpu-item';
      const line = document.createElement('span'); line.className = 'gpu-line'; li.appendChild(line);
      const head = ul.querySelector('li.head');
      ul.insertBefore(li, head ? head.nextSibling : ul.firstChild);
    }
    const st = w.json.state;
    li.className = 'gpu ' + (st === 'timed' ? 'timed' : st === 'wrong' ? 'missed' : st === 'not-timed' ? 'quiet' : GPU_DONE[st] ? 'failed' : 'waiting');
    li.dataset.state = st;
    const line = li.querySelector('.gpu-line');
    if (line.textContent !== text) line.textContent = text;
    const old = li.querySelector('svg'), chart = triesChart(w.tries);
    if (old && (!chart || old.getAttribute('aria-label') !== chart.getAttribute('aria-label') || old.dataset.lang !== lang)) old.remove();
    if (chart && !li.querySelector('svg')) li.appendChild(chart);
  }
  // the chart of the timed tries: GB/s per try, oldest to newest (the last 30), the best marked; its
  // name lists them ("3 tries timed: 410, 980, 1,367 GB/s; best 1,367"), the picture is for the eye
  const CHART_TRIES = 30;
  function triesChart(tries) {
    const timed = (tries || []).filter((t) => t && t.state === 'timed' && Number.isFinite(t.gbs) && t.gbs > 0);
    if (!timed.length) return null;
    const shown = timed.slice(-CHART_TRIES), n = shown.length;
    const fmt = (v) => Math.round(v).toLocaleString('en-US');
    let best = 0;
    shown.forEach((t, i) => { if (t.gbs > shown[best].gbs) best = i; });
    const allBest = timed.reduce((m, t) => Math.max(m, t.gbs), 0), list = shown.map((t) => fmt(t.gbs)).join(W('listSep'));
    const name = timed.length > n ? W('triesLast', timed.length, list, fmt(allBest), n) : W(n === 1 ? 'tries1' : 'triesN', n, list, fmt(allBest));
    const NS = 'http://www.w3.org/2000/svg', wd = 280, ht = 64, padX = 10, top = 24, bottom = 6;
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('width', wd); svg.setAttribute('height', ht); svg.setAttribute('viewBox', `0 0 ${wd} ${ht}`);
    svg.setAttribute('role', 'img'); svg.setAttribute('aria-label', name); svg.setAttribute('class', 'tries');
    svg.dataset.lang = lang;
    const add = (tag, attrs, text) => { const e = document.createElementNS(NS, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (text !== undefined) e.textContent = text; svg.appendChild(e); return e; };
    const max = shown[best].gbs;
    const x = (i) => (n === 1 ? wd / 2 : padX + (i * (wd - 2 * padX)) / (n - 1)), y = (v) => top + (ht - top - bottom) * (1 - v / max);
    add('line', { x1: 0, x2: wd, y1: y(0), y2: y(0), class: 'axis' });
    add('line', { x1: 0, x2: wd, y1: y(max), y2: y(max), class: 'bestline' });
    if (n > 1) add('polyline', { points: shown.map((t, i) => x(i).toFixed(1) + ',' + y(t.gbs).toFixed(1)).join(' '), class: 'trail' });
    shown.forEach((t, i) => { if (i !== best) add('circle', { cx: x(i), cy: y(t.gbs), r: 3.5, class: 'try' }); });
    add('circle', { cx: x(best), cy: y(max), r: 6, class: 'best' });
    // the best's words above it, kept inside the chart: anchored at its end near the right edge
    const bx = x(best), anchor = bx < wd * 0.3 ? 'start' : bx > wd * 0.7 ? 'end' : 'middle';
    add('text', { x: anchor === 'start' ? Math.max(2, bx - 6) : anchor === 'end' ? Math.min(wd - 2, bx + 6) : bx, y: top - 9, 'text-anchor': anchor, class: 'bestword' },
        W('best', fmt(max) + ' GB/s'));
    return svg;
  }
  function editorListen() {
    $('write').addEventListener('click', () => showEditor($('editor').hidden, true));
    $('run').addEventListener('click', run);
    $('check').addEventListener('click', check);
    $('exercise').addEventListener('change', () => chooseExercise($('exercise').value));
    $('compare-with').addEventListener('change', () => { const v = $('compare-with').value; if (S.steps) act(v ? 'compare:' + v : 'compare:off'); });
    for (const id of ['entry', 'n', 'block']) $(id).addEventListener('change', keep);
    $('student').addEventListener('change', () => stored('student', $('student').value.trim() || null));
    if (window.ResizeObserver) new ResizeObserver(() => redraw()).observe(stage);
  }
  // after the first picture: the editor opens where it was left open, or where the address asks
  // (?editor=1, or ?exercise=NN); it is never opened unasked, so a plain static site asks nothing
  // of a server it does not have
  function editorStart() {
    if (query.get('embed') === '1') return;
    const was = query.has('editor') ? query.get('editor') : query.has('exercise') ? '1' : stored('open');
    if (was === '1') showEditor(true, false);
  }

  // what tests and the page's own console use
  window.warpscope = {
    key, openBytes,
    actions: (s) => withString(s, (p) => wasm.ws_actions(p)) === 0 ? (redraw(), '') : cstr(wasm.ws_error()),
    learn: (s) => withString(s, (p) => wasm.ws_learn(p)) === 0 ? (redraw(), '') : cstr(wasm.ws_error()),
    mouse: (kind, x, y, b) => { wasm.ws_mouse(kind, x, y, b); redraw(); },
    draw: () => { pending = false; frame(); },
    list: () => JSON.parse(cstr(wasm.ws_list_json())),
    items: () => { const n = wasm.ws_item_count(), w = wasm.ws_item_ints(), at = wasm.ws_items(); return Array.from(new Int32Array(mem.buffer, at, n * w)); },
    metrics: metricsTable,
    state: () => Object.assign(state(), { answer: wasm.ws_answer_state() }),
    files: () => [...files.keys()],
    loaded: () => !rest,
  };
  start();
})();
