// Writes the app icons (PNG) into public/icons without any image library: a dark-blue square with a
// white "target" (concentric rings and a centre dot). Re-run with `npm run icons`; the PNGs are committed.
import { deflateSync } from "node:zlib";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const OUT = join(dirname(fileURLToPath(import.meta.url)), "..", "public", "icons");
const BG = [0x1e, 0x3a, 0x8a]; // #1e3a8a
const FG = [0xff, 0xff, 0xff];
const ACCENT = [0xfb, 0xbf, 0x24]; // #fbbf24

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function png(size, pixel) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel(x, y);
      const o = y * (size * 4 + 1) + 1 + x * 4;
      raw[o] = r; raw[o + 1] = g; raw[o + 2] = b; raw[o + 3] = a;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; ihdr[9] = 6; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0; // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw, { level: 9 })), chunk("IEND", Buffer.alloc(0)),
  ]);
}

// scale: the target's radius as a share of half the icon (maskable icons keep it inside the safe zone).
function targetIcon(size, scale) {
  const SS = 4; // supersampling per axis
  const colourAt = (u, v) => {
    const d = Math.hypot(u, v) / scale; // u, v in [-1, 1]
    if (d <= 0.18) return ACCENT;
    if (d >= 0.34 && d <= 0.5) return FG;
    if (d >= 0.66 && d <= 0.82) return FG;
    return BG;
  };
  return png(size, (x, y) => {
    let r = 0, g = 0, b = 0;
    for (let i = 0; i < SS; i++) for (let j = 0; j < SS; j++) {
      const u = ((x + (i + 0.5) / SS) / size) * 2 - 1;
      const v = ((y + (j + 0.5) / SS) / size) * 2 - 1;
      const c = colourAt(u, v);
      r += c[0]; g += c[1]; b += c[2];
    }
    const n = SS * SS;
    return [Math.round(r / n), Math.round(g / n), Math.round(b / n), 255];
  });
}

mkdirSync(OUT, { recursive: true });
const files = {
  "icon-192.png": targetIcon(192, 0.9),
  "icon-512.png": targetIcon(512, 0.9),
  "maskable-512.png": targetIcon(512, 0.7),
  "apple-touch-icon-180.png": targetIcon(180, 0.75),
};
for (const [name, data] of Object.entries(files)) {
  writeFileSync(join(OUT, name), data);
  console.log(`wrote public/icons/${name} (${data.length} bytes)`);
}
