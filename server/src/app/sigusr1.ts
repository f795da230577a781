// Imported by main.ts right after production.ts, before the app's modules load: the second belt
// against SIGUSR1. On SIGUSR1 Node opens its inspector on 127.0.0.1:9229, from which any code runs
// inside the server with every secret of its environment. Every start of the server passes
// --disable-sigusr1 (scripts/server-command.mjs, deploy/collectif@.service), with which Node holds
// the signal back and this listener never runs. A server started without the flag (by hand, or by
// a start this project does not know) has this listener, which takes the signal's place in Node:
// the inspector stays closed, and the log says a signal came (docs/deploy.md, « The server, built »).
process.on('SIGUSR1', () => {
  console.warn('Signal SIGUSR1 reçu et ignoré : l’inspecteur de Node reste fermé.');
});
