// The demo data's type icons are paths of the original front end's files,
// which this server does not serve: show an emoji for each known one.
const byFile: Record<string, string> = {
  'ms.png': '🍜',
  'KTV.png': '🎤',
  'lrmf.png': '💇',
  'jsyd.png': '🏋️',
  'amzl.png': '💆',
  'spa.png': '🧖',
  'qzyl.png': '🎠',
  'jiuba.png': '🍸',
  'hpg.png': '🎉',
  'mjmj.png': '💅',
}

export function typeEmoji(icon: string): string {
  const file = icon.split('/').pop() ?? ''
  return byFile[file] ?? '🏪'
}
