#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 The libonnxslim authors
// SPDX-License-Identifier: MIT
// Creates an onnxruntime-node session (default options) for each model
// listed in LIST (one path a line) and prints "ok PATH" or
// "error PATH: MESSAGE" (first line of the message), after a first line
// "# ready" once onnxruntime is loaded (so that a crash on a model can be
// told from a failure to start). Used by test/steps/48-inline-table.sh.
// Exit status 0 (the results are the output).
// Usage: node test/external/ort_load.js LIST
'use strict';
const fs = require('fs');
const path = require('path');
const dir = process.env.ORT_NODE_MODULES;
const ort = dir ? require(path.resolve(dir, 'onnxruntime-node')) : require('onnxruntime-node');

(async () => {
  const models = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l);
  console.log('# ready');
  for (const m of models) {
    try {
      const s = await ort.InferenceSession.create(m);
      await s.release();
      console.log(`ok ${m}`);
    } catch (e) {
      console.log(`error ${m}: ${String((e && e.message) || e).split('\n')[0].slice(0, 400)}`);
    }
  }
})();
