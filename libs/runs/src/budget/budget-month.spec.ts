import { budgetExceededMessage, budgetStatus, monthRange } from './budget-month';

describe('monthRange', () => {
  it('should span the calendar month in UTC, December rolling into the next year', () => {
    const dec = monthRange(new Date('2026-12-31T23:59:59Z'));
    expect(dec).toEqual({ month: '2026-12', from: new Date('2026-12-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') });
    expect(monthRange(new Date('2027-01-01T00:00:00Z')).month).toBe('2027-01');
    expect(monthRange(new Date(), '2026-02')).toMatchObject({ from: new Date('2026-02-01T00:00:00Z'), to: new Date('2026-03-01T00:00:00Z') });
  });
});

describe('budgetStatus', () => {
  const range = monthRange(new Date('2026-12-10T12:00:00Z'));

  it('should never be exceeded without a budget', () => {
    expect(budgetStatus(range, null, 1e6)).toMatchObject({ monthlyUsd: null, remainingUsd: null, exceeded: false, warning: false });
  });

  it('should warn from 80 % and be exceeded once the spend reaches the budget', () => {
    expect(budgetStatus(range, 10, 7.99)).toMatchObject({ exceeded: false, warning: false, remainingUsd: 10 - 7.99 });
    expect(budgetStatus(range, 10, 8)).toMatchObject({ exceeded: false, warning: true });
    expect(budgetStatus(range, 10, 10)).toMatchObject({ exceeded: true, warning: true, remainingUsd: 0 });
    expect(budgetStatus(range, 0, 0).exceeded).toBe(true);
  });

  it('should say what was spent, when it resets and who can raise it', () => {
    const text = budgetExceededMessage(budgetStatus(range, 5, 5.0312));
    expect(text).toContain('$5.00');
    expect(text).toContain('$5.03 in 2026-12');
    expect(text).toContain('2027-01-01');
    expect(text).toMatch(/owner or admin raises the budget/);
  });
});
