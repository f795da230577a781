import type { RemoteContract } from '@collectif/shared';

function LabelPage() {
  return (
    <div className="page">
      <h1>Label</h1>
    </div>
  );
}

export default LabelPage satisfies RemoteContract['label']['LabelPage'];
