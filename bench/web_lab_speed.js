// The browser Lab's training speed in headless chromium (SwiftShader: a floor), one thread against threads: the page
// served without the isolation headers loads peviz.js (a slice of steps per frame), with them peviz-threads.js (a
// worker per core). Per build: one run (RoPE, copy) for --seconds with the mouse still and as long moving, then the
// default experiment (six encodings, one seed) from Train to its last evaluation, with the frames the page drew
// meanwhile (the mouse still). --budget-s caps each default
// experiment: past it the time is estimated from the steps done (printed as "estimated"; evaluations not included).
//   node bench/web_lab_speed.js [--site build-web/site] [--seconds 30] [--budget-s N] [--only peviz|peviz-threads]
// Needs tests/web's puppeteer-core (npm ci in tests/web) and Debian's chromium; bench/web_vs_native.sh runs it.
'use strict';
const path = require('path');
const puppeteer = require('../tests/web/node_modules/puppeteer-core');
const {serve, baseOf} = require('../tests/web/site_server');

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) =>
  a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs, []));
const site = path.resolve(args.site || 'build-web/site');
const seconds = Number(args.seconds || 30);
const budgetS = args['budget-s'] ? Number(args['budget-s']) : Infinity;
const ONE_RUN = '#view=lab&state=' + encodeURIComponent(JSON.stringify({lab: {encodings: ['rope']}}));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function sample(page) {
  return page.evaluate(() => ({...window.pevizPage.training, frames: window.pevizPage.framesDrawn, now: performance.now()}));
}

async function openTraining(browser, base, fragment) {
  const page = await browser.newPage();
  await page.setViewport({width: 1280, height: 720, deviceScaleFactor: 1});
  await page.goto(`${base}?hide_pointer&train${fragment}`, {waitUntil: 'load'});
  await page.waitForFunction(() => window.pevizPage.training && window.pevizPage.training.steps >= 3,
                             {timeout: 300000, polling: 100});
  return page;
}

// Steps/s and frames drawn/s over `ms`, the mouse still or moving over the charts (every frame draws then).
async function rates(page, ms, moving) {
  const a = await sample(page);
  const end = Date.now() + ms;
  for (let i = 0; Date.now() < end; ++i) {
    if (moving) await page.mouse.move(500 + (i % 2) * 40, 400);
    else await sleep(50);
  }
  const b = await sample(page);
  const s = (b.now - a.now) / 1000;
  return `${((b.steps - a.steps) / s).toFixed(2)} steps/s, ${((b.frames - a.frames) / s).toFixed(1)} frames drawn/s`;
}

// One run, after its first steps: `seconds` with the mouse still, then as long with it moving.
async function oneRun(browser, base, build) {
  const page = await openTraining(browser, base, ONE_RUN);
  const still = await rates(page, seconds * 1000, false);
  const moving = await rates(page, seconds * 1000, true);
  console.log(`${build}: one run (rope, copy), ${seconds} s each: mouse still ${still}; mouse moving ${moving}`);
  await page.close();
}

// The default experiment from Train to its last run's end (or an estimate past the budget).
async function defaultExperiment(browser, base, build) {
  const page = await openTraining(browser, base, '#view=lab');
  const first = await sample(page);
  let last = first;
  while (last.ended < last.runs && (last.now - first.since) / 1000 < budgetS) {
    await sleep(2000);
    last = await sample(page);
  }
  const elapsed = (last.at - first.since) / 1000;
  const fps = (last.frames - first.frames) / ((last.now - first.now) / 1000);
  const done = last.ended === last.runs;
  const time = done ? elapsed : elapsed * last.planned / Math.max(last.steps, 1);
  console.log(`${build}: default experiment (${last.runs} runs, ${last.planned} steps): ` +
              `${done ? '' : 'estimated '}${time.toFixed(0)} s` +
              (done ? '' : ` (${last.steps} steps in ${elapsed.toFixed(0)} s)`) +
              `, ${(last.steps / elapsed).toFixed(2)} steps/s in all, ${fps.toFixed(1)} frames drawn/s while it trained`);
  await page.close();
}

(async () => {
  const plain = await serve(site), isolated = await serve(site, {isolated: true});
  const browser = await puppeteer.launch({executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--window-size=1280,720']});
  try {
    const page = await browser.newPage();
    await page.goto(baseOf(isolated), {waitUntil: 'load'});
    console.log(`chromium ${await browser.version()}, navigator.hardwareConcurrency ` +
                `${await page.evaluate(() => navigator.hardwareConcurrency)}`);
    await page.close();
    for (const [build, server] of [['peviz', plain], ['peviz-threads', isolated]]) {
      if (args.only && args.only !== build) continue;
      await oneRun(browser, baseOf(server), build);
      await defaultExperiment(browser, baseOf(server), build);
    }
  } finally {
    await browser.close();
    plain.close();
    isolated.close();
  }
})();
