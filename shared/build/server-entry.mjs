// The placeholder a remote's server bundle entry is made in (server-entry.cjs, the loader, replaces
// this text with the imports of the remote's exposed modules). An ES module, as the entry is.
export {};
