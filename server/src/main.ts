import './app/production';
import './app/sigusr1';
import { buildApp } from './app/app';
import { ConfigError, missingDists, readSiteServerConfig } from './settings/config';
import { readApiConfig } from './api/env';
import { renderingProblem } from './app/startup';
import { collectAtRest } from './app/rest';

async function main(): Promise<void> {
  let site;
  let api;
  try {
    site = readSiteServerConfig(process.env);
    api = readApiConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration invalide : ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  // What it cannot run correctly, it refuses to start with, rather than degrade without a word.
  const problem = renderingProblem();
  if (problem !== null) {
    console.error(`Démarrage refusé : ${problem}`);
    process.exit(1);
  }
  const missing = missingDists(site);
  if (missing.length > 0) console.warn(`Parties non construites : ${missing.join(', ')} (npm run build)`);
  const app = await buildApp({ site, api, logger: true });
  const close = () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', close);
  process.on('SIGTERM', close);
  await app.listen({ host: site.host, port: site.port });
  // Its garbage given back once quiet (docs/rendering.md, « Memory »); the timer does not hold the process.
  collectAtRest(globalThis.gc);
}

void main();
