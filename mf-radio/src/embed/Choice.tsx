import { useId, type ReactNode } from 'react';

/** A radio button and its label; what it opens follows (shown by CSS while it is checked). */
export function Choice({
  name,
  value,
  checked,
  onChoose,
  label,
  note,
  className,
  children,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChoose: () => void;
  label: string;
  note?: string;
  className?: string;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div className={className === undefined ? 'integrer__choice' : `integrer__choice ${className}`}>
      <input id={id} type="radio" name={name} value={value} checked={checked} onChange={onChoose} />
      <label htmlFor={id}>
        {label}
        {note === undefined ? null : <span className="integrer__note"> · {note}</span>}
      </label>
      {children}
    </div>
  );
}
