// A small PNG reader for the browser tests: 8-bit greyscale, RGB or RGBA, not interlaced (what chromium's
// screenshots and peviz's figures are), decoded to RGBA; and the tEXt chunks, as peviz stores a figure's parameters.
'use strict';
const zlib = require('zlib');

function chunks(buffer) {
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  if (buffer.length < 8 || !buffer.subarray(0, 8).equals(signature)) throw new Error('not a PNG file');
  const out = [];
  for (let at = 8; at + 12 <= buffer.length;) {
    const length = buffer.readUInt32BE(at);
    out.push({type: buffer.toString('latin1', at + 4, at + 8), data: buffer.subarray(at + 8, at + 8 + length)});
    at += 12 + length;
  }
  return out;
}

function paeth(a, b, c) {
  const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// {width, height, rgba: Uint8Array} of a PNG file's bytes.
function decode(buffer) {
  const list = chunks(buffer);
  const ihdr = list.find((c) => c.type === 'IHDR').data;
  const width = ihdr.readUInt32BE(0), height = ihdr.readUInt32BE(4), depth = ihdr[8], colour = ihdr[9];
  const channels = {0: 1, 2: 3, 6: 4}[colour];
  if (depth !== 8 || !channels || ihdr[12] !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour ${colour})`);
  const raw = zlib.inflateSync(Buffer.concat(list.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const stride = width * channels, pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)], row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; ++x) {
      const a = x >= channels ? pixels[y * stride + x - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      pixels[y * stride + x] = (row[x] + predictor) & 255;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; ++i) {
    for (let k = 0; k < 3; ++k) rgba[i * 4 + k] = pixels[i * channels + (channels < 3 ? 0 : k)];
    rgba[i * 4 + 3] = channels === 4 ? pixels[i * 4 + 3] : 255;
  }
  return {width, height, rgba};
}

// The tEXt chunks as {keyword: text}.
function texts(buffer) {
  const out = {};
  for (const c of chunks(buffer)) {
    if (c.type !== 'tEXt') continue;
    const nul = c.data.indexOf(0);
    out[c.data.toString('latin1', 0, nul)] = c.data.toString('latin1', nul + 1);
  }
  return out;
}

module.exports = {decode, texts};
