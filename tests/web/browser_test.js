// The browser build in a real browser: Debian's chromium (headless, SwiftShader's WebGL 2) driven by puppeteer-core,
// the page served from build-web/site by local servers, with the cross-origin isolation headers (the threaded build)
// and without (the one-thread build, which every check but the threaded build's uses). Prints "SKIPPED: <why>" and exits 77 where the web build,
// chromium or puppeteer-core is missing; else one line per check and "N passed, M failed".
//   node tests/web/browser_test.js --site build-web/site --peviz build/peviz [--out DIR] [--only NAME]
'use strict';
const fs = require('fs');
const path = require('path');
const os = require('os');
const zlib = require('zlib');
const {execFileSync} = require('child_process');
const png = require('./png');
const {serve, baseOf} = require('./site_server');

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) =>
  a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs, []));
const site = path.resolve(args.site || 'build-web/site');
const out = args.out || fs.mkdtempSync(path.join(os.tmpdir(), 'peviz-web-'));
fs.mkdirSync(out, {recursive: true});
const CHROMIUM = '/usr/bin/chromium';
const PAGES = ['basics', 'rope-clocks', 'rope-decay', 'context-extension', 'attention-scale', 'mrope', 'alibi', 't5-shaw', 'distance',
               'linear-shift', 'criteria', 'learned', 'precision', 'lab'];
const LESSON = 'positional-encodings';
const WIDTH = 1280, HEIGHT = 720;

function skip(why) {
  console.log(`SKIPPED: ${why}`);
  process.exit(77);
}
for (const build of ['peviz', 'peviz-threads'])
  if (!fs.existsSync(path.join(site, `${build}.wasm`))) skip(`no ${build}.wasm at ${site} (./setup.sh web --build-only)`);
if (!fs.existsSync(CHROMIUM)) skip(`no ${CHROMIUM} (apt-get install chromium)`);
let puppeteer;
try {
  puppeteer = require('puppeteer-core');
} catch (e) {
  skip('puppeteer-core is not installed (npm install in tests/web; ./setup.sh test does it)');
}

// ---- checks ----
const results = [];
function check(name, ok, detail) {
  results.push(ok);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ': ' + detail : ''}`);
}

// A page of the app at `address` (query and fragment), after `frames` animation frames; console errors collected.
async function openApp(browser, base, address, frames = 12) {
  const page = await browser.newPage();
  await page.setViewport({width: WIDTH, height: HEIGHT, deviceScaleFactor: 1});
  page.consoleErrors = [];
  page.consoleLines = [];
  page.on('console', (m) => {
    if (m.type() === 'error') page.consoleErrors.push(m.text());
    page.consoleLines.push(m.text());
  });
  page.on('pageerror', (e) => page.consoleErrors.push(e.message));
  await page.goto(base + address, {waitUntil: 'load'});
  if (frames > 0) await waitFrames(page, frames);
  return page;
}

async function waitFrames(page, frames, timeoutMs = 60000) {
  const start = await page.evaluate(() => window.pevizPage.frameCount);
  await page.waitForFunction((n) => window.pevizPage.frameCount >= n || window.pevizPage.exitCode !== null,
                             {timeout: timeoutMs, polling: 50}, start + frames);
}

// The desktop's screenshot of the same view: `peviz --view V --size WxH --screenshot` under Xvfb.
function desktopScreenshot(view, file, flags = []) {
  const config = fs.mkdtempSync(path.join(os.tmpdir(), 'peviz-web-desktop-'));
  // Displays from 400 on: app_tests' windows start xvfb-run -a from 99 at the same time, and two xvfb-run -a that
  // try the same free display at once can leave one waiting for ever.
  execFileSync('xvfb-run', ['-a', '-n', '400', '-s', '-screen 0 1920x1080x24', args.peviz, '--frames', '6', '--reset',
                            '--hide-pointer', '--size', `${WIDTH}x${HEIGHT}`, '--view', view, ...flags,
                            '--screenshot', file],
               {env: {...process.env, XDG_CONFIG_HOME: config}, stdio: 'pipe', timeout: 120000});
  fs.rmSync(config, {recursive: true, force: true});
  return png.decode(fs.readFileSync(file));
}

// Mean colour of 16 x 16 blocks: the two renderers (Mesa's llvmpipe, SwiftShader) rasterise the same triangles and
// the same font atlas, but anti-aliased edges and the frame-time line differ pixel by pixel; blocks compare content.
function blocks(image, size = 16) {
  const bw = Math.floor(image.width / size), bh = Math.floor(image.height / size), out = [];
  for (let by = 0; by < bh; ++by) {
    for (let bx = 0; bx < bw; ++bx) {
      const sum = [0, 0, 0];
      for (let y = by * size; y < (by + 1) * size; ++y)
        for (let x = bx * size; x < (bx + 1) * size; ++x)
          for (let k = 0; k < 3; ++k) sum[k] += image.rgba[(y * image.width + x) * 4 + k];
      out.push(sum.map((v) => v / (size * size)));
    }
  }
  return out;
}

// The share of blocks whose mean colour differs by more than `tolerance` (0-255) in any channel, over the blocks
// within the left `width` pixels (the whole image by default; less: one panel of the window).
function differingBlocks(a, b, tolerance = 24, width = a.width) {
  const ba = blocks(a), bb = blocks(b), perRow = Math.floor(a.width / 16), columns = Math.floor(width / 16);
  let differ = 0, counted = 0;
  for (let i = 0; i < ba.length; ++i) {
    if (i % perRow >= columns) continue;
    ++counted;
    if (ba[i].some((v, k) => Math.abs(v - bb[i][k]) > tolerance)) ++differ;
  }
  return differ / counted;
}

function distinctColours(image) {
  const seen = new Set();
  for (let i = 0; i < image.width * image.height; i += 7) seen.add((image.rgba[i * 4] << 16) | (image.rgba[i * 4 + 1] << 8) | image.rgba[i * 4 + 2]);
  return seen.size;
}

async function screenshot(page, name) {
  const file = path.join(out, `${name}.png`);
  await page.screenshot({path: file});
  return png.decode(fs.readFileSync(file));
}

// A file reaches the app asynchronously (the browser reads it, then the app takes it in its next frame): wait for
// the address to name it, up to 20 s, then let it draw; a file that never arrives fails the check after.
async function waitForAddress(page, pattern) {
  await page.waitForFunction((source) => new RegExp(source).test(window.location.hash), {timeout: 20000, polling: 50},
                             pattern.source).catch(() => {});
  await waitFrames(page, 10);
}

async function hash(page) { return page.evaluate(() => window.location.hash.replace(/^#/, '')); }

// ---- the checks, one function each ----
// The Lab's Reproductions table (compiled into core, so the page needs no file for it) as the desktop draws it.
async function reproductionsTableMatchesTheDesktop(browser, base) {
  const page = await openApp(browser, base, '?hide_pointer#view=lab&show=reproductions', 20);
  const web = await screenshot(page, 'web-reproductions');
  const desktop = desktopScreenshot('lab', path.join(out, 'desktop-reproductions.png'), ['--preset', 'lab-reproductions']);
  const share = differingBlocks(web, desktop);
  check('#view=lab&show=reproductions matches the desktop\'s preset lab-reproductions',
        share <= 0.05 && page.consoleErrors.length === 0,
        `${(100 * share).toFixed(1)}% of 16x16 blocks differ by > 24 (bound 5%)` +
        (page.consoleErrors.length ? `; console: ${page.consoleErrors[0]}` : ''));
  await page.close();
}

async function everyPageMatchesTheDesktop(browser, base) {
  const shots = {};
  for (const view of PAGES) {
    const page = await openApp(browser, base, `?hide_pointer#view=${view}`, view === 'lab' ? 40 : 12);
    const web = await screenshot(page, `web-${view}`);
    const desktop = desktopScreenshot(view, path.join(out, `desktop-${view}.png`));
    const share = differingBlocks(web, desktop);
    shots[view] = {web, desktop};
    const bound = 0.05;
    check(`#view=${view} matches the desktop's peviz --view ${view}`, share <= bound && page.consoleErrors.length === 0,
          `${(100 * share).toFixed(1)}% of 16x16 blocks differ by > 24 (bound ${100 * bound}%)` +
          (page.consoleErrors.length ? `; console: ${page.consoleErrors[0]}` : ''));
    await page.close();
  }
  // The comparison can fail: two different pages differ in far more blocks than the bound.
  const apart = differingBlocks(shots['basics'].web, shots['rope-clocks'].desktop);
  check('the block comparison tells two pages apart', apart > 0.2, `${(100 * apart).toFixed(1)}% of blocks differ`);
}

// The wheel scrolls a panel down one notch at a time: Chromium's wheel events carry pixels (100 a notch, positive
// down), which emscripten's GLFW passes on raw; the window layer turns them into notches, positive up, as ImGui takes
// them. The Lab's settings panel is longer than the window at 1280 x 720: a notch down moves it, and a second notch
// moves it again (100 notches at once would have hit the bottom; the wrong sign leaves it at the top).
async function wheelScrollsAPanelOneNotchDown(browser, base) {
  const page = await openApp(browser, base, '#view=lab', 30);  // the pointer counts: no hide_pointer
  await page.mouse.move(160, 420);
  await waitFrames(page, 8);
  const top = await screenshot(page, 'wheel-0');
  const shots = [];
  for (let notch = 1; notch <= 2; ++notch) {
    await page.mouse.wheel({deltaY: 100});
    await waitFrames(page, 8);
    shots.push(await screenshot(page, `wheel-${notch}`));
  }
  const first = differingBlocks(top, shots[0], 24, 320), second = differingBlocks(shots[0], shots[1], 24, 320);
  check('the wheel scrolls the Lab panel down one notch at a time', first > 0.1 && second > 0.1,
        `${(100 * first).toFixed(0)}% of the panel's blocks changed after one notch down, ` +
        `${(100 * second).toFixed(0)}% after the second (each must be > 10%)`);
  await page.close();
}

async function everyLessonStepOpens(browser, base) {
  const lesson = JSON.parse(fs.readFileSync(path.join(__dirname, '../../assets/lessons', `${LESSON}.json`)));
  for (let step = 1; step <= lesson.steps.length; ++step) {
    const link = `lesson=${LESSON}&step=${step}&present`;
    const page = await openApp(browser, base, `?hide_pointer#${link}`, 20);
    const image = await screenshot(page, `lesson-step-${step}`);
    const colours = distinctColours(image);
    const now = await hash(page);
    check(`#${link} opens the step, presenting, and keeps its link`,
          colours > 50 && now === link && page.consoleErrors.length === 0,
          `${colours} colours; address #${now}` + (page.consoleErrors.length ? `; console: ${page.consoleErrors[0]}` : ''));
    await page.close();
  }
}

async function linksRoundTrip(browser, base) {
  const links = ['view=basics&d_model=64&base=100&seq_len=256', 'view=alibi', 'view=rope-clocks&theme=light'];
  for (const link of links) {
    const page = await openApp(browser, base, `#${link}`, 20);
    check(`#${link} stays the page's address`, (await hash(page)) === link, `#${await hash(page)}`);
    await page.close();
  }
  // A change in the app goes back into the address (replacing the entry: history does not grow).
  const page = await openApp(browser, base, '#view=basics', 10);
  const before = await page.evaluate(() => history.length);
  await page.evaluate(() => { window.location.hash = 'view=precision&d_model=32'; });
  await waitFrames(page, 40);
  check('an address typed into the open page opens that view', (await hash(page)) === 'view=precision&d_model=32');
  check('the address follows the app without adding history entries', (await page.evaluate(() => history.length)) <= before + 1);
  await page.evaluate(() => { window.location.hash = 'view=precision'; });
  await waitFrames(page, 40);
  check('a link is the whole view: a pasted link without d_model opens the default d_model',
        (await hash(page)) === 'view=precision', `#${await hash(page)}`);
  await page.close();
  const bad = await openApp(browser, base, '#view=nowhere&d_model=99999&zz=1', 20);
  const errors = await bad.evaluate(() => window.pevizPage.errors.join(' | '));
  await screenshot(bad, 'refused-link');  // the reasons wrap above the status line, none cut at 1280 px
  check('a malformed link opens the default view, says what was not understood and stays in the address to correct',
        (await hash(bad)) === 'view=nowhere&d_model=99999&zz=1' && /link: /.test(errors) && /d_model/.test(errors),
        `#${await hash(bad)}; ${errors}`);
  await bad.evaluate(() => { window.location.hash = 'view=alibi&d_model=64'; });
  await waitFrames(bad, 40);
  check('the corrected link opens', (await hash(bad)) === 'view=alibi&d_model=64', `#${await hash(bad)}`);
  await bad.close();
}

async function uploadedConfigOpensTheModel(browser, base) {
  const page = await openApp(browser, base, '#view=basics', 10);
  const config = path.join(__dirname, '../../assets/models/llama-3.1-8b-instruct.json');
  const upload = path.join(out, 'config.json');
  fs.copyFileSync(config, upload);
  const input = await page.$('#file-picker');
  await input.uploadFile(upload);
  await waitForAddress(page, /uploaded%2Fconfig.json|uploaded\/config.json/);
  const link = decodeURIComponent(await hash(page));
  const image = await screenshot(page, 'uploaded-config');
  check('uploading a config.json opens that model on Context extension',
        link.startsWith('view=context-extension') && /"model_path":"\/uploaded\/config.json"/.test(link) && page.consoleErrors.length === 0,
        link.slice(0, 160));
  check('the uploaded model is drawn', distinctColours(image) > 50);
  await page.close();
}

async function droppedConfigOpensTheModel(browser, base) {
  const page = await openApp(browser, base, '#view=basics', 10);
  const text = fs.readFileSync(path.join(__dirname, '../../assets/models/qwen2.5-7b-instruct.json'), 'utf8');
  await page.evaluate((json) => {
    const data = new DataTransfer();
    data.items.add(new File([json], 'qwen.json', {type: 'application/json'}));
    const canvas = document.getElementById('canvas');
    for (const type of ['dragenter', 'dragover', 'drop'])
      canvas.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true, cancelable: true}));
  }, text);
  await waitForAddress(page, /uploaded%2Fqwen.json|uploaded\/qwen.json/);
  const link = decodeURIComponent(await hash(page));
  check('a config.json dropped onto the page opens that model', /"model_name":"qwen"/.test(link) &&
        /"model_path":"\/uploaded\/qwen.json"/.test(link) && page.consoleErrors.length === 0, link.slice(0, 160));
  await page.close();
}

async function figureDownloadIsAPngWithItsParameters(browser, base) {
  const page = await openApp(browser, base, '#view=basics&d_model=64', 10);
  const downloads = fs.mkdtempSync(path.join(out, 'downloads-'));
  const cdp = await page.target().createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', {behavior: 'allow', downloadPath: downloads});
  await page.click('#canvas', {offset: {x: WIDTH / 2, y: HEIGHT - 4}});
  await page.keyboard.press('F12');
  let file = null;
  for (let i = 0; i < 200 && !file; ++i) {
    await new Promise((r) => setTimeout(r, 100));
    file = fs.readdirSync(downloads).find((f) => f.endsWith('.png'));
  }
  if (!file) return check('F12 downloads the figure as a PNG', false, 'no download within 20 s');
  const bytes = fs.readFileSync(path.join(downloads, file));
  const image = png.decode(bytes);
  const texts = png.texts(bytes);
  const params = Object.values(texts).join(' ');
  check('F12 downloads the figure as a PNG with its parameters inside', image.width >= WIDTH && /"d_model":\s*64/.test(params),
        `${file}: ${image.width} x ${image.height}, tEXt keys ${Object.keys(texts).join(', ')}`);
  await page.close();
}

async function randomInputOverEveryPage(browser, base) {
  const frames = Number(args['monkey-frames'] || 3000);
  const page = await openApp(browser, base, `?monkey=20261126&frames=${frames}`, 2);
  const mib = (bytes) => (bytes / 1048576).toFixed(1);
  const inUse = () => page.evaluate(() => Module._peviz_heap_in_use());
  await waitFrames(page, Math.floor(frames / 3), 600000);
  const early = await inUse();  // every page has been visited a few times by now
  await page.waitForFunction(() => window.pevizPage.exitCode !== null, {timeout: 600000, polling: 500});
  const code = await page.evaluate(() => window.pevizPage.exitCode);
  const late = await inUse();
  const size = await page.evaluate(() => Module.HEAP8.length);
  const summary = page.consoleLines.concat(await page.evaluate(() => window.pevizPage.errors))
                      .filter((l) => /monkey/.test(l)).join(' | ');
  check(`random input for ${frames} frames over every page: no crash, every state check passed`,
        code === 0 && page.consoleErrors.length === 0, `exit ${code}; ${summary}`);
  // Memory: what the heap holds at the end against a third of the way in (the wasm memory only ever grows).
  check('the heap in use does not keep growing under random input', late <= 1.5 * early + 32 * 1048576,
        `in use ${mib(early)} MiB at frame ${Math.floor(frames / 3)}, ${mib(late)} MiB at the end; wasm memory ${mib(size)} MiB`);
  await page.close();
}

async function highDpiCanvasIsCrisp(browser, base) {
  const page = await browser.newPage();
  await page.setViewport({width: 800, height: 500, deviceScaleFactor: 2});
  await page.goto(base + '#view=basics', {waitUntil: 'load'});
  await waitFrames(page, 12);
  const size = await page.evaluate(() => [document.getElementById('canvas').width, document.getElementById('canvas').height]);
  const image = await screenshot(page, 'high-dpi');
  check('on a 2x display the canvas has a device pixel per screen pixel (1600 x 1000 for 800 x 500)',
        size[0] === 1600 && size[1] === 1000 && image.width === 1600 && distinctColours(image) > 50, `canvas ${size.join(' x ')}`);
  await page.close();
}

// The engine compiled to wasm computes what the native one does: `peviz export` through the command line built
// with em++ (build-web/peviz.js, run by node) against the native binary, for every absolute encoding (at a width
// past 32 bits: wasm32's size_t is 32 bits wide), the similarity, RoPE with a model's scaling, and the bounds.
// Tolerance 1e-6 of the largest value: the kernels give the same bits by design; libc++'s sin and cos may round
// a last place differently from glibc's.
function cliExportsMatchNative() {
  const cli = path.join(site, '..', 'peviz.js');
  if (!fs.existsSync(cli)) return check('the wasm command line matches the native one', false, `${cli} is missing`);
  const config = path.join(__dirname, '..', '..', 'assets', 'models', 'llama-3.1-8b-instruct.json');
  const exports = [
    ...['sinusoidal', 'binary', 'normalized', 'integer'].map((e) => ['encoding', '--encoding', e, '--d-model', '96', '--seq-len', '300']),
    ['similarity', '--d-model', '64', '--seq-len', '200'],
    ['rope-inv-freq', '--config', config],
    ['rope-bounds', '--head-dim', '128', '--base', '10000', '--context-len', '4096'],
    ['alibi-bias', '--heads', '8', '--seq-len', '40'],
  ];
  for (const e of exports) {
    const run = (cmd, pre) => JSON.parse(execFileSync(cmd, [...pre, 'export', ...e, '--format', 'json'],
                                                      {encoding: 'utf8', maxBuffer: 1 << 28, timeout: 120000}));
    const native = run(args.peviz, []), wasm = run('node', ['--no-experimental-fetch', cli]);
    const a = native.data, b = wasm.data;
    let worst = a.length === b.length ? 0 : Infinity, scale = 0;
    for (let i = 0; i < Math.min(a.length, b.length); ++i) {
      if (a[i] === null || b[i] === null) { if (a[i] !== b[i]) worst = Infinity; continue; }
      worst = Math.max(worst, Math.abs(a[i] - b[i]));
      scale = Math.max(scale, Math.abs(a[i]));
    }
    check(`peviz export ${e.slice(0, 3).join(' ')} in wasm matches native`, worst <= 1e-6 * Math.max(scale, 1),
          `${a.length} values, largest difference ${worst}`);
  }
}

// The wasm engine trains what the native one does: a few steps of the default model (RoPE, copy) end at the same
// loss to 1e-4 (relative). Their matrix products differ (Eigen's SSE2 kernels on wasm SIMD against LIBXSMM and
// OpenBLAS), so the bits do not agree; a wrong kernel moves the loss by far more.
function cliTrainingMatchesNative() {
  const cli = path.join(site, '..', 'peviz.js');
  const train = ['train', '--task', 'copy', '--pe', 'rope', '--steps', '12', '--threads', '1', '--test-samples', '1',
                 '--test-max', '5'];
  const run = (cmd, pre) => JSON.parse(execFileSync(cmd, [...pre, ...train], {encoding: 'utf8', timeout: 120000,
                                                                             stdio: ['ignore', 'pipe', 'ignore']})
                                         .trim().split('\n').pop()).final_loss;
  const native = run(args.peviz, []), wasm = run('node', ['--no-experimental-fetch', cli]);
  const relative = Math.abs(native - wasm) / Math.abs(native);
  check('peviz train in wasm ends at the native loss', relative <= 1e-4,
        `12 steps: native ${native}, wasm ${wasm}, relative difference ${relative.toExponential(2)}`);
}

// Frames drawn per second on Basics while the mouse moves over the plot (every frame draws), in SwiftShader: a
// floor, not a GPU figure. Printed, not checked (no timed tests).
async function reportFrameRate(browser, base) {
  const page = await openApp(browser, base, '#view=basics', 10);
  const start = await page.evaluate(() => [window.pevizPage.framesDrawn, performance.now()]);
  for (let i = 0; i < 250; ++i) await page.mouse.move(500 + (i % 2) * 40, 300);
  const end = await page.evaluate(() => [window.pevizPage.framesDrawn, performance.now()]);
  const fps = (end[0] - start[0]) / ((end[1] - start[1]) / 1000);
  console.log(`info: Basics at ${WIDTH} x ${HEIGHT} in headless chromium (SwiftShader), the mouse moving: ` +
              `${fps.toFixed(1)} frames drawn/s, ${(1000 / fps).toFixed(1)} ms a frame`);
  await page.close();
}

// An idle page draws nothing (a laptop's battery, a class's fans) and wakes on input: skipped animation frames
// while nothing moves, frames drawn again once the mouse moves, and the address written before it went idle.
async function idlePageDrawsNothing(browser, base) {
  const page = await openApp(browser, base, '#view=basics', 30);
  await page.mouse.move(700, 400);  // a change, then nothing
  await page.keyboard.press('ArrowRight');
  await waitFrames(page, 20);
  const before = await page.evaluate(() => window.pevizPage.framesDrawn);
  await waitFrames(page, 60);
  const idle = (await page.evaluate(() => window.pevizPage.framesDrawn)) - before;
  check('an idle page skips its frames', idle === 0, `${idle} frames drawn in 60 animation frames without input`);
  await page.mouse.move(710, 420);
  await waitFrames(page, 10);
  const woken = (await page.evaluate(() => window.pevizPage.framesDrawn)) - before - idle;
  check('input wakes it', woken >= 1, `${woken} frames drawn in the 10 animation frames after a mouse move`);
  const address = await page.evaluate(() => window.location.hash);
  check('the address was written before it went idle', address.startsWith('#view=basics'), address);
  await page.close();
}

// The Lab's training as the page reports it (gfx::report_training): waits until `steps` steps are done in all.
async function waitForSteps(page, steps, timeoutMs) {
  await page.waitForFunction((n) => (window.pevizPage.training || {steps: 0}).steps >= n,
                             {timeout: timeoutMs, polling: 100}, steps);
}

// Steps trained, frames drawn and the share of the browser's animation frames drawn over `ms` of a training Lab,
// the mouse still or (`moving`) moving over the charts.
async function trainingRates(page, ms, moving = false) {
  const sample = () => page.evaluate(() => [pevizPage.training.steps, pevizPage.framesDrawn, performance.now(),
                                            pevizPage.frameCount]);
  const a = await sample();
  const end = Date.now() + ms;
  for (let i = 0; Date.now() < end; ++i) {
    if (moving) await page.mouse.move(500 + (i % 2) * 40, 400);
    else await new Promise((r) => setTimeout(r, 50));
  }
  const b = await sample();
  const s = (b[2] - a[2]) / 1000;
  return {stepsPerS: (b[0] - a[0]) / s, framesPerS: (b[1] - a[1]) / s, drawnShare: (b[1] - a[1]) / Math.max(1, b[3] - a[3])};
}

// Where the page is cross-origin isolated it loads the threaded build: the Lab's runs train on worker threads
// (one per core the browser reports but one, at least one: background_workers) while the page's own thread draws
// in every animation frame the browser gives it, the mouse still or moving.
async function threadedBuildWhenIsolated(browser, base, isolatedBase) {
  const page = await openApp(browser, isolatedBase, '?hide_pointer&train#view=lab', 10);
  const [isolated, build, cores] = await page.evaluate(() => [window.crossOriginIsolated, window.pevizPage.build,
                                                              navigator.hardwareConcurrency]);
  check('a cross-origin isolated page loads the threaded build', isolated === true && build === 'peviz-threads',
        `crossOriginIsolated ${isolated}, ${build}.js, ${cores} cores`);
  await waitForSteps(page, 5, 180000);
  const still = await trainingRates(page, 4000), moving = await trainingRates(page, 4000, true);
  await screenshot(page, 'lab-training-threads');
  const training = await page.evaluate(() => window.pevizPage.training);
  check('its Lab trains on worker threads and the page draws in every animation frame',
        still.stepsPerS > 0 && still.drawnShare >= 0.9 && moving.drawnShare >= 0.9 && page.consoleErrors.length === 0,
        `${training.runs} runs, ${still.stepsPerS.toFixed(1)} steps/s in all; frames drawn/s ` +
        `${still.framesPerS.toFixed(1)} with the mouse still, ${moving.framesPerS.toFixed(1)} moving ` +
        `(${moving.stepsPerS.toFixed(1)} steps/s); share of animation frames drawn ${still.drawnShare.toFixed(2)} ` +
        `still, ${moving.drawnShare.toFixed(2)} moving` + (page.consoleErrors.length ? `; console: ${page.consoleErrors[0]}` : ''));
  await page.close();
}

// Without the isolation headers the page loads the one-thread build, says so, and the Lab trains in its frames.
async function oneThreadWithoutIsolation(browser, base) {
  const page = await openApp(browser, base, '?hide_pointer&train#view=lab', 10);
  const [isolated, build] = await page.evaluate(() => [window.crossOriginIsolated, window.pevizPage.build]);
  const said = page.consoleLines.find((l) => /training on one thread: this page is not cross-origin isolated/.test(l));
  const hint = fs.readFileSync(path.join(site, 'peviz.wasm')).includes('Training on one thread: this page is not cross-origin isolated');
  check('a page without isolation loads the one-thread build and says why, in the console and the Lab\'s hint',
        isolated === false && build === 'peviz' && said !== undefined && hint, `crossOriginIsolated ${isolated}, ${build}.js; ${said}`);
  await waitForSteps(page, 3, 180000);
  const rate = await trainingRates(page, 3000);
  check('its Lab trains a slice of steps per frame', rate.stepsPerS > 0 && page.consoleErrors.length === 0,
        `${rate.stepsPerS.toFixed(1)} steps/s, ${rate.framesPerS.toFixed(1)} frames drawn/s`);
  await page.close();
}

// A static host that cannot send the headers: the page's own service worker (web/peviz-isolation.js, registered over
// https or with ?isolation_worker) adds them and the page reloads once, isolated. On a server of its own: the worker
// would isolate every later page of its origin.
async function serviceWorkerIsolates(browser) {
  const server = await serve(site);
  try {
    // The page reloads itself once the worker controls it, so the wait is puppeteer's waitForFunction, which runs
    // again in the new page where a navigation destroys the old one (page.evaluate would fail with it).
    const page = await openApp(browser, baseOf(server), '?isolation_worker#view=basics', 0);
    await page.waitForFunction(() => window.crossOriginIsolated && window.pevizPage && window.pevizPage.frameCount >= 10,
                               {timeout: 60000, polling: 100}).catch(() => {});
    const [isolated, build] = await page.evaluate(() => [window.crossOriginIsolated, window.pevizPage.build]);
    check('without the headers, the page\'s service worker isolates it and the threaded build loads',
          isolated === true && build === 'peviz-threads' && page.consoleErrors.length === 0,
          `crossOriginIsolated ${isolated}, ${build}.js` + (page.consoleErrors.length ? `; console: ${page.consoleErrors[0]}` : ''));
    await page.close();
  } finally {
    server.close();
  }
}

// The first view's download, both builds: every file the page fetched until its first frames were drawn, gzipped at
// level 9 as a static host would serve them, within 1.6 MiB (issue 57). The threaded build's workers fetch
// peviz-threads.worker.js themselves, out of the page's sight, so it is counted by name.
const FIRST_VIEW_BUDGET_KIB = 1.6 * 1024;
async function firstViewWithinBudget(browser, base, isolatedBase) {
  for (const [build, from] of [['peviz', base], ['peviz-threads', isolatedBase]]) {
    const page = await browser.newPage();
    await page.setViewport({width: WIDTH, height: HEIGHT, deviceScaleFactor: 1});
    const fetched = new Set(build === 'peviz-threads' ? [`${build}.worker.js`] : []);
    page.on('request', (r) => fetched.add(decodeURIComponent(new URL(r.url()).pathname.replace(/^\//, '')) || 'index.html'));
    await page.goto(from + '#view=basics', {waitUntil: 'load'});
    await waitFrames(page, 4);
    const loaded = await page.evaluate(() => window.pevizPage.build);
    const files = [...fetched].filter((f) => fs.existsSync(path.join(site, f)) && fs.statSync(path.join(site, f)).isFile());
    const kib = files.reduce((sum, f) => sum + zlib.gzipSync(fs.readFileSync(path.join(site, f)), {level: 9}).length, 0) / 1024;
    check(`the first view of ${build}.js downloads at most ${FIRST_VIEW_BUDGET_KIB.toFixed(0)} KiB gzip`,
          loaded === build && kib <= FIRST_VIEW_BUDGET_KIB, `${kib.toFixed(0)} KiB in ${files.sort().join(', ')}`);
    await page.close();
  }
}

const CHECKS = {firstViewWithinBudget, threadedBuildWhenIsolated, oneThreadWithoutIsolation, serviceWorkerIsolates, cliExportsMatchNative,
                cliTrainingMatchesNative, reportFrameRate, idlePageDrawsNothing, everyPageMatchesTheDesktop, reproductionsTableMatchesTheDesktop, wheelScrollsAPanelOneNotchDown,
                highDpiCanvasIsCrisp, everyLessonStepOpens, linksRoundTrip, uploadedConfigOpensTheModel,
                droppedConfigOpensTheModel, figureDownloadIsAPngWithItsParameters, randomInputOverEveryPage};

(async () => {
  const server = await serve(site), isolatedServer = await serve(site, {isolated: true});
  const base = baseOf(server), isolatedBase = baseOf(isolatedServer);
  const browser = await puppeteer.launch({executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', `--window-size=${WIDTH},${HEIGHT}`]});
  try {
    for (const [name, fn] of Object.entries(CHECKS)) {
      if (args.only && args.only !== name) continue;
      try {
        await fn(browser, base, isolatedBase);
      } catch (e) {
        check(name, false, e.stack.split('\n').slice(0, 3).join(' '));
      }
    }
  } finally {
    await browser.close();
    server.close();
    isolatedServer.close();
  }
  const failed = results.filter((ok) => !ok).length;
  console.log(`screenshots in ${out}`);
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})();
