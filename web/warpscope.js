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
  function unpack(buf) {
    const dv = new DataView(buf), u8 = new Uint8Array(buf), dec = DEC;
    if (dec.decode(u8.subarray(0, 8)) !== 'WSPACK1\n') throw new Error('warpscope.pack: not a warpscope pack');
    let at = 8;
    while (at < u8.length) {
      const nlen = dv.getUint32(at, true); at += 4;
      const name = dec.decode(u8.subarray(at, at + nlen)); at += nlen;
      const size = dv.getUint32(at, true); at += 4;
      putFile(name, u8.slice(at, at + size)); at += size;
    }
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
    if (!at && n) { fail('out of memory while drawing'); return; }
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

  // ---- the frame loop ----
  let pending = false, firstPicture = 0;
  function size() {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(320, Math.round(window.innerWidth * dpr)), h = Math.max(240, Math.round(window.innerHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    canvas.style.width = window.innerWidth + 'px'; canvas.style.height = window.innerHeight + 'px';
  }
  function frame() {
    pending = false;
    size();
    const moving = wasm.ws_frame(canvas.width, canvas.height, performance.now());
    if (moving < 0) { fail('out of memory while drawing'); return; }
    execute();
    if (!firstPicture) { firstPicture = performance.now(); document.body.dataset.firstPicture = String(Math.round(firstPicture)); }
    const req = wasm.ws_requests();
    if (req & 1) savePng();
    if (req & 2) { if (document.fullscreenElement) document.exitFullscreen(); else document.documentElement.requestFullscreen().catch(() => {}); }
    if (moving) redraw();
  }
  function redraw() { if (!pending) { pending = true; requestAnimationFrame(frame); } }
  function savePng() {
    const name = 'warpscope-' + (cstr(wasm.ws_version()) || 'bench') + '-step' + wasm.ws_step() + '.png';
    canvas.toBlob((b) => { const a = document.createElement('a'); a.href = URL.createObjectURL(b); a.download = name; a.click(); setTimeout(() => URL.revokeObjectURL(a.href), 1000); });
  }
  function fail(msg) {
    const p = document.getElementById('trouble');
    p.textContent = 'warpscope: ' + msg; p.hidden = false;
    console.error('warpscope: ' + msg);
  }

  // ---- input ----
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
  function key(name) { const used = withString(name, (p) => wasm.ws_key(p)); redraw(); return used; }
  function pos(e) { const r = canvas.getBoundingClientRect(), s = canvas.width / r.width; return [Math.round((e.clientX - r.left) * s), Math.round((e.clientY - r.top) * s)]; }
  function listen() {
    window.addEventListener('keydown', (e) => {
      if (e.altKey) return;
      const name = keyName(e);
      // F5 is a clicker's "start the show": it must not reload the page under the lecture
      if ((name && key(name)) || e.key === 'F5') e.preventDefault();
    });
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
      else { // a tap presses where it lands; a finger does not hover, so no tooltip stays behind
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
  function openBytes(name, bytes) {
    const path = 'dropped/' + name.replace(/[^A-Za-z0-9._-]/g, '_');
    putFile(path, bytes);
    const rc = withString(path, (p) => wasm.ws_open(p));
    redraw();
    return rc;
  }

  // ---- start ----
  async function start() {
    const t0 = performance.now();
    try {
      const [pack, module] = await Promise.all([
        fetch('warpscope.pack').then((r) => { if (!r.ok) throw new Error('warpscope.pack: ' + r.status); return r.arrayBuffer(); }),
        WebAssembly.compileStreaming(fetch('warpscope.wasm')).catch(async () => WebAssembly.compile(await (await fetch('warpscope.wasm')).arrayBuffer())),
      ]);
      unpack(pack);
      restore();
      const inst = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi, warpscope: metrics });
      wasm = inst.exports; mem = wasm.memory;
      wasm._initialize();
      if (wasm.ws_start() !== 0) throw new Error(cstr(wasm.ws_error()));
      // the address's options: ?lang=zh, ?lesson=03 (or "" for the menu), ?actions=version:v2,compare:v3
      const q = new URLSearchParams(location.search);
      const lang = q.get('lang') || ((navigator.language || '').startsWith('zh') ? 'zh' : 'en');
      if (lang === 'zh') withString('lang:zh', (p) => wasm.ws_actions(p));
      if (q.get('actions') && withString(q.get('actions'), (p) => wasm.ws_actions(p))) fail(cstr(wasm.ws_error()));
      if (q.has('lesson')) withString(q.get('lesson'), (p) => wasm.ws_learn(p)); // one it lacks: the menu, and the status line says why
      listen();
      frame();
      document.body.dataset.loadMs = String(Math.round(performance.now() - t0));
    } catch (e) {
      fail(e.message || String(e));
    }
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
    state: () => ({ lang: cstr(wasm.ws_lang()), step: wasm.ws_step(), version: cstr(wasm.ws_version()), answer: wasm.ws_answer_state(), status: cstr(wasm.ws_status()) }),
    files: () => [...files.keys()],
  };
  start();
})();
