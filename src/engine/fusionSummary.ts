/** The fusion plan as the engine returns it (see src/fusion for how it is built). */
export interface FusionPlanSummary {
  joinSteps: { left: { table: string; column: string }; right: { table: string; column: string }; score: number; containment: number }[];
  unionGroups: { tables: string[]; columns: string[] }[];
  sql: string | null;
  executable: boolean;
  warnings: string[];
}
