export { validateStepPlan, stepPlanTool, STEP_PLANNING_GUIDANCE, type PlanVerdict } from './step-plan';
export {
  stepModeState,
  nextStepAction,
  unfinishedSteps,
  stepTask,
  stepResult,
  stepWrapUp,
  STEP_CONTEXT_RESULT_MAX_CHARS,
  STEP_RESULT_MAX_CHARS,
  type StepAction,
  type StepLogEvent,
  type StepModeState,
  type StepRecord,
} from './step-state';
export { planSteps, type PlanningOutcome } from './step-planning';
