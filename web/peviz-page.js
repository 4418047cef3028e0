// The page around peviz.wasm: emscripten's Module (canvas, output, loading status) and window.pevizPage, the
// JavaScript half of app/gfx/platform_web.cpp (downloads, the file picker, the clipboard, the exit code), and the
// choice of build: peviz-threads.js where the page is cross-origin isolated (the Lab trains on worker threads),
// peviz.js elsewhere (one thread, a slice of training steps per frame).
'use strict';

// Threads need SharedArrayBuffer, which a browser gives only to a cross-origin isolated page: one served with
// Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp (tools/web/serve.py).
const pevizThreads = window.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';

window.pevizPage = {
  build: pevizThreads ? 'peviz-threads' : 'peviz',  // which build the page loaded
  exitCode: null,   // set when the app's frame loop ends (tests read it)
  frameCount: 0,    // animation frames so far (an idle app skips drawing in them)
  framesDrawn: 0,   // the frames the app drew
  wheelDeltaMode: 0,  // of the last wheel event: 0 pixels, 1 lines, 2 pages (app/gfx/window.cpp converts to notches)
  inputs: 0,        // events, address changes, files and fetched data since the app last looked (it wakes on them)
  errors: [],       // lines the app printed to stderr
  download(name, bytes) {
    const url = URL.createObjectURL(new Blob([bytes]));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  },
  pickFile() { document.getElementById('file-picker').click(); },
  copyText(text) {
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
  },
  finished(code) { this.exitCode = code; },
  // The Lab's training (gfx::report_training): steps done and planned over every run, runs ended of all, and when
  // (ms since the page began: performance.now()) the current training started and last moved.
  training: null,
  reportTraining(steps, planned, ended, runs) {
    const now = performance.now();
    const fresh = !this.training || steps < this.training.steps || runs !== this.training.runs;
    this.training = {steps, planned, ended, runs, since: fresh ? now : this.training.since, at: now};
  },
  // Every file named in <urlPrefix>files.txt into the page's folder `dir`; then Module[done](1), or (0).
  fetchFolder(urlPrefix, dir, done) {
    const get = (name) => fetch(urlPrefix + name).then((r) => {
      if (!r.ok) throw new Error(urlPrefix + name + ': ' + r.status);
      return r;
    });
    get('files.txt')
      .then((r) => r.text())
      .then((text) => Promise.all(text.split('\n').filter((n) => n).map((name) =>
        get(name).then((r) => r.arrayBuffer()).then((b) => [name, new Uint8Array(b)]))))
      .then((files) => {
        Module.FS.mkdirTree(dir);
        for (const [name, bytes] of files) Module.FS.writeFile(dir + name, bytes);
        pevizPage.inputs++;
        Module[done](1);
      })
      .catch((e) => {
        console.warn('peviz: could not fetch ' + urlPrefix + ': ' + e.message);
        pevizPage.inputs++;
        Module[done](0);
      });
  },
  // A file from the picker (or a test) into the page's file system, then opened like a dropped file.
  openFile(name, bytes) {
    const dir = '/uploaded';  // a config.json's model is named after its folder: "uploaded"
    if (!Module.FS.analyzePath(dir).exists) Module.FS.mkdir(dir);
    const path = dir + '/' + name.replace(/[\/\\]/g, '_');
    Module.FS.writeFile(path, bytes);
    this.inputs++;
    Module.ccall('peviz_file_arrived', null, ['string'], [path]);
  },
};

// Whatever can change what the app shows wakes it (app/gfx/platform_web.cpp skips frames while it waits).
for (const type of ['mousemove', 'mousedown', 'mouseup', 'wheel', 'keydown', 'keyup', 'pointerdown', 'pointermove',
                    'pointerup', 'touchstart', 'touchmove', 'touchend', 'resize', 'hashchange', 'focus', 'blur',
                    'dragover', 'drop', 'paste']) {
  window.addEventListener(type, () => { pevizPage.inputs++; }, {capture: true, passive: true});
}
window.addEventListener('wheel', (event) => { pevizPage.wheelDeltaMode = event.deltaMode; },
                        {capture: true, passive: true});
document.addEventListener('visibilitychange', () => { pevizPage.inputs++; });

document.getElementById('file-picker').addEventListener('change', (event) => {
  const file = event.target.files[0];
  if (!file) return;
  file.arrayBuffer().then((buffer) => pevizPage.openFile(file.name, new Uint8Array(buffer)));
  event.target.value = '';
});

const statusBox = document.getElementById('status');
var Module = {
  canvas: document.getElementById('canvas'),
  print: (text) => console.log(text),
  printErr: (text) => {
    pevizPage.errors.push(text);
    console.warn(text);
  },
  setStatus: (text) => {
    if (!text) statusBox.style.display = 'none';
  },
  onRuntimeInitialized: () => { statusBox.style.display = 'none'; },
  onAbort: (what) => {
    statusBox.style.display = '';
    statusBox.className = 'error';
    statusBox.textContent = 'peviz stopped: ' + what + ' (reload the page to start again)';
  },
};
window.Module = Module;

function loadBuild() {
  if (!pevizThreads) {
    console.log('peviz: training on one thread: this page is not cross-origin isolated (docs/user-guide.md#the-browser)');
  }
  const script = document.createElement('script');
  script.src = pevizPage.build + '.js';
  script.async = true;
  document.body.appendChild(script);
}

// Not isolated over https (a static host without the headers), or with ?isolation_worker (tests): our own service
// worker (peviz-isolation.js) adds the headers, and the page reloads once it controls it. Tried once per tab; where
// it does not take over within 4 s, the one-thread build loads.
const tryWorker = !pevizThreads && 'serviceWorker' in navigator && window.isSecureContext &&
                  (location.protocol === 'https:' || new URLSearchParams(location.search).has('isolation_worker')) &&
                  !sessionStorage.getItem('peviz-isolation-tried');
if (tryWorker) {
  sessionStorage.setItem('peviz-isolation-tried', '1');
  navigator.serviceWorker.addEventListener('controllerchange', () => location.reload());
  navigator.serviceWorker.register('peviz-isolation.js')
    .then((registration) => { if (registration.active && navigator.serviceWorker.controller) location.reload(); })
    .catch((e) => console.warn('peviz: no isolation service worker: ' + e.message));
  setTimeout(() => { if (!document.querySelector('script[src$="peviz.js"]')) loadBuild(); }, 4000);
} else {
  loadBuild();
}
