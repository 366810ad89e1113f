import gzip, sys
import collections
R=[l.strip().split(',') for l in gzip.open(sys.argv[1],'rt') if l.startswith('R,') or l.startswith('RH,')]
runs=[];cur=None
for r in R:
    if r[0]=='RH': cur={'h':r,'ctas':[]};runs.append(cur)
    else: cur['ctas'].append(tuple(int(x) for x in r[1:]))
par=list(range(132))
def f(x):
    while par[x]!=x: par[x]=par[par[x]]; x=par[x]
    return x
for run in runs:
    cl=collections.defaultdict(list)
    for cs,i,sm,nsm,cid,rank,t0,t1 in run['ctas']: cl[cid].append(sm)
    for cid,sms in cl.items():
        for s in sms[1:]: par[f(s)]=f(sms[0])
g=collections.defaultdict(list)
for s in range(132): g[f(s)].append(s)
for k,v in sorted(g.items(),key=lambda kv:kv[1][0]): print(len(v),v)
print("nsmid",set(c[3] for run in runs for c in run['ctas']))
# residency: max concurrency
for run in runs:
    ev=[]
    for cs,i,sm,nsm,cid,rank,t0,t1 in run['ctas']:
        if rank==0 or True: ev.append((t0,1,cid));ev.append((t1,-1,cid))
    ctas=run['ctas'];cs=ctas[0][0]
    ev.sort(key=lambda e:(e[0],e[1]))
    c=0;m=0
    for t,d,_ in ev: c+=d;m=max(m,c)
    first_end=min(x[7] for x in ctas)
    started_before=len(set(x[4] for x in ctas if x[6]<first_end))
    print(run['h'][1:6], 'max concurrent CTAs',m,'clusters started before first end',started_before)
