import type { ButtonHTMLAttributes } from 'react';

/** Whether the current token's role may use a button, and the tooltip saying which role may. */
export interface Gate {
  disabled: boolean;
  title: string | undefined;
}

/**
 * A button the current role may not use: disabled, with a tooltip naming the role that may. The
 * tooltip sits on a wrapper too, because some browsers show none for a disabled button.
 */
export function GatedButton({ gate, disabled, title, ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { gate: Gate }) {
  const button = <button type="button" {...props} disabled={disabled || gate.disabled} title={gate.title ?? title} data-role-gated={gate.disabled || undefined} />;
  return gate.disabled ? (
    <span className="gated" title={gate.title}>
      {button}
    </span>
  ) : (
    button
  );
}
