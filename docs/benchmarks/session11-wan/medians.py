"""Medians of the session-11 runs at 50/100/150/200 ms: python3 medians.py [DIR] (DIR holds results-RUN.csv)."""
import csv,os,statistics,sys,collections
d=sys.argv[1] if len(sys.argv)>1 else os.path.dirname(os.path.abspath(__file__))
bound={'4w':11.153,'4s':11.153,'kill':18.801}
groups={'new':[('e1','braid-alt'),('e3','braid-alt'),('e5','braid-adaptive')],
        'renew':[('b','braid-adaptive'),('d','braid-adaptive'),('e1','braid-adaptive'),('e3','braid-adaptive')],
        'base':[('base','braid-adaptive'),('e2','braid-adaptive'),('e4','braid-adaptive'),('e6','braid-adaptive')],
        'aria2':[('base','aria2-tuned'),('a','aria2-tuned'),('b','aria2-tuned'),('c','aria2-tuned'),('e1','aria2-tuned'),('e5','aria2-tuned')]}
data=collections.defaultdict(list)
for g,srcs in groups.items():
    for run,cont in srcs:
        try: rows=list(csv.DictReader(open(os.path.join(d,f'results-{run}.csv'))))
        except FileNotFoundError: continue
        for r in rows:
            if r['contender']==cont and r['rtt_ms']=='50/100/150/200':
                data[(r['scenario'],g)].append((float(r['wall_s']),float(r['transfer_s']),run))
for sc in ['4w','4s','kill']:
    for g in ['new','base','renew','aria2']:
        v=data[(sc,g)]
        if not v: continue
        w=sorted(x for x,_,_ in v); t=sorted(y for _,y,_ in v)
        print(f"{sc:4} {g:6} n={len(v)} wall med {statistics.median(w):.2f} ({100*bound[sc]/statistics.median(w):.1f}%) transfer med {statistics.median(t):.2f} | walls {', '.join(f'{x:.2f}' for x in w)} | transfers {', '.join(f'{x:.2f}' for x in t)}")
