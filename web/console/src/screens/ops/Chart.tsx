// The analytics charts (recharts, loaded with this module only when the analytics screen
// draws its first chart). The numbers are also in the tables beside them.
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export type Series = { key: string; label: string; color: string };
export const series: Series[] = [
  { key: "sent", label: "Sent", color: "#4f46e5" },
  { key: "delivered", label: "Delivered", color: "#0e9384" },
  { key: "read", label: "Read", color: "#dc6803" },
  { key: "clicked", label: "Clicked", color: "#7a5af8" },
  { key: "failed", label: "Failed", color: "#d92d20" },
];
const axis = { stroke: "var(--muted)", fontSize: 12 };
const tip = { contentStyle: { background: "var(--surface)", border: "1px solid var(--border)", color: "var(--text)" } };

/** DaysChart draws the counts of every day as lines. */
export function DaysChart({ days, title }: { days: Record<string, unknown>[]; title: string }) {
  return (
    <figure role="img" aria-label={title} style={{ margin: 0, height: 260 }}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={days} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="date" tick={axis} />
          <YAxis allowDecimals={false} tick={axis} width={40} />
          <Tooltip {...tip} />
          <Legend />
          {series.map((s) => (
            <Line key={s.key} type="linear" dataKey={s.key} name={s.label} stroke={s.color} dot={false} strokeWidth={2} isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** TotalsChart draws the totals of each row (channel or template) as grouped bars. */
export function TotalsChart({ rows, title }: { rows: Record<string, unknown>[]; title: string }) {
  return (
    <figure role="img" aria-label={title} style={{ margin: 0, height: 220 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="name" tick={axis} />
          <YAxis allowDecimals={false} tick={axis} width={40} />
          <Tooltip {...tip} />
          <Legend />
          {series.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.label} fill={s.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
