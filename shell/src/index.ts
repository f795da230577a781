// The shell's shared singletons are eager (in this entry chunk), so no asynchronous boundary is
// needed before the app's code: the remotes, loaded later, take the shell's copies.
//
// Its modules are evaluated in three tasks rather than one (docs/rendering.md, « Scripts after
// the paint »): React's DOM renderer, then the shared library (store, API, router), then the app.
// Between them the browser may handle input and paint; on a slow phone each is a shorter task.
const nextTask = () =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, 0);
  });

async function load(): Promise<void> {
  await import(/* webpackMode: "eager" */ 'react-dom/client');
  await nextTask();
  await import(/* webpackMode: "eager" */ '@collectif/shared');
  await nextTask();
  await import(/* webpackMode: "eager" */ './bootstrap');
}

void load();
