document.getElementById('root')!.textContent = 'webapp';
