/** The chat panel's element, which the bar's chat button controls (ChatPanel.tsx, loaded when opened). */
export const CHAT_PANEL_ID = 'lecteur-chat';
