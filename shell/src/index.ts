// The shell's shared singletons are eager (in this entry chunk), so no asynchronous boundary is
// needed before the app's code: the remotes, loaded later, take the shell's copies.
import './bootstrap';
