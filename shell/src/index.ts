// The shell's shared singletons are eager (in this entry chunk), so no asynchronous boundary is
// needed before the app's code: the remotes, loaded later, take the shell's copies.
//
// Its modules are evaluated in five tasks rather than one (docs/first-screen.md, « Scripts after
// the paint »): React's DOM renderer, the router's library, the Redux libraries, then the shared
// library (store, API, router) over them, then the app. Between them the browser may handle input
// and paint; on a slow phone each is a shorter task. A library is evaluated once: the shared library
// then finds it evaluated. Each is asked for by one of its exports (`webpackExports`), the name the
// shared library imports, so that the import keeps no more of it than the shared library does.
const nextTask = () =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, 0);
  });

async function load(): Promise<void> {
  await import(/* webpackMode: "eager" */ 'react-dom/client');
  await nextTask();
  await import(/* webpackMode: "eager", webpackExports: ["createBrowserRouter"] */ 'react-router-dom');
  await nextTask();
  await import(/* webpackMode: "eager", webpackExports: ["createApi"] */ '@reduxjs/toolkit/query/react');
  await nextTask();
  await import(/* webpackMode: "eager" */ '@collectif/shared');
  await nextTask();
  await import(/* webpackMode: "eager" */ './bootstrap');
}

void load();
