// Radix primitives: Tabs, Checkbox, Slider and a DropdownMenu, unstyled but for sizes.
import React, { useState, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import * as Tabs from '@radix-ui/react-tabs';
import * as Checkbox from '@radix-ui/react-checkbox';
import * as Slider from '@radix-ui/react-slider';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { report } from './report.js';

function App() {
  const [tab, setTab] = useState('account');
  const [terms, setTerms] = useState(false);
  const [volume, setVolume] = useState([50]);
  const [action, setAction] = useState('');
  useEffect(() => report('radix', { tab, terms, volume: volume[0], action }), [tab, terms, volume, action]);
  return (
    <div style={{ width: 400, margin: 20, display: 'flex', flexDirection: 'column', gap: 16 }}>
      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List aria-label="Settings">
          <Tabs.Trigger value="account">Account</Tabs.Trigger>
          <Tabs.Trigger value="password">Password</Tabs.Trigger>
          <Tabs.Trigger value="billing">Billing</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="account"><p>Account panel</p></Tabs.Content>
        <Tabs.Content value="password"><p>Password panel</p></Tabs.Content>
        <Tabs.Content value="billing"><p>Billing panel</p></Tabs.Content>
      </Tabs.Root>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <Checkbox.Root id="terms" checked={terms} onCheckedChange={(v) => setTerms(v === true)} style={{ width: 24, height: 24, border: '1px solid #333', background: '#fff' }}>
          <Checkbox.Indicator>✓</Checkbox.Indicator>
        </Checkbox.Root>
        <label htmlFor="terms">Accept terms</label>
      </div>
      <Slider.Root value={volume} onValueChange={setVolume} max={100} step={1} style={{ position: 'relative', display: 'flex', alignItems: 'center', width: 300, height: 24 }}>
        <Slider.Track style={{ position: 'relative', flexGrow: 1, height: 4, background: '#bbb' }}>
          <Slider.Range style={{ position: 'absolute', height: '100%', background: '#333' }} />
        </Slider.Track>
        <Slider.Thumb aria-label="Volume" style={{ display: 'block', width: 20, height: 20, borderRadius: 10, background: '#333' }} />
      </Slider.Root>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger style={{ width: 120 }}>Options</DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content style={{ background: '#fff', border: '1px solid #333', padding: 4, minWidth: 140 }}>
            <DropdownMenu.Item onSelect={() => setAction('rename')}>Rename</DropdownMenu.Item>
            <DropdownMenu.Item onSelect={() => setAction('duplicate')}>Duplicate</DropdownMenu.Item>
            <DropdownMenu.Item onSelect={() => setAction('archive')}>Archive</DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}

createRoot(document.getElementById('root')).render(<App />);
