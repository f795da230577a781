export function Paragraphs({ paragraphs }: { paragraphs: readonly string[] }) {
  return (
    <>
      {paragraphs.map((text) => (
        <p key={text}>{text}</p>
      ))}
    </>
  );
}
