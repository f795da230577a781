/**
 * The live timeline's row, held from the open bar's first frame while the timeline's code and its
 * window come (docs/interface.md, « The player »): the bar keeps one height, where the row arrived
 * a second after the tap on a phone and moved the bar's contents up by its height.
 */
export function TimelineRoom() {
  return <div className="player__timeline-room" aria-hidden="true" />;
}
