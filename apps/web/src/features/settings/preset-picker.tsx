'use client';

import { useState } from 'react';
import type { ModelPreset, ModelPresetList, WorkspaceResponse as Workspace } from '@h/contracts';
import { SelectField } from '../../components/select-field';
import { useApiQuery } from '../../lib/use-api-query';

/**
 * The team's model presets as a choice in the new-session form: picking one fills in its provider,
 * model and thinking (which stay editable). Shows nothing while the team has none.
 */
export function PresetPicker({ workspaceId, onPick }: { workspaceId: string; onPick: (preset: Pick<ModelPreset, 'providerId' | 'model' | 'thinking'>) => void }) {
  const workspace = useApiQuery<Workspace>(`/api/v1/workspaces/${encodeURIComponent(workspaceId)}`);
  const teamId = workspace.data?.teamId;
  const presets = useApiQuery<ModelPresetList>(teamId ? `/api/v1/teams/${encodeURIComponent(teamId)}/model-presets` : null);
  const [picked, setPicked] = useState('');
  const items = presets.data?.items ?? [];
  if (!items.length) return null;
  const options = [{ value: '', label: 'None: choose the model below' }, ...items.map((p) => ({ value: p.id, label: `${p.name} (${p.model}, thinking ${p.thinking ? 'on' : 'off'})` }))];
  return (
    <SelectField
      id="session-preset"
      label="Preset"
      value={picked}
      options={options}
      onChange={(id) => {
        setPicked(id);
        const preset = items.find((p) => p.id === id);
        if (preset) onPick(preset);
      }}
    />
  );
}
