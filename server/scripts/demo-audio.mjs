// Replaced by the radio data API (issue 3): synthesises the demo audio into server/.demo/.
export async function generateDemoAudio() {
  return 0;
}
